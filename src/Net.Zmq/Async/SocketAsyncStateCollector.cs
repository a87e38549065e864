namespace Net.Zmq.Async;

/// <summary>
/// Disposes a socket's async state when the <see cref="Socket"/> is collected without being disposed. The reactor
/// roots the state, and the state the native handle, so without this a dropped socket would stay open forever and
/// its context would never terminate. Only the socket references it; <see cref="Socket.Dispose"/> suppresses it.
/// </summary>
internal sealed class SocketAsyncStateCollector(SocketAsyncState state)
{
    // Fails what is still parked and stops watching the descriptor; the handle's own finalizer then closes the socket.
    ~SocketAsyncStateCollector() => state.Dispose();
}
