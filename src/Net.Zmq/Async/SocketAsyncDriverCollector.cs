namespace Net.Zmq.Async;

/// <summary>
/// Disposes a socket's async driver when the <see cref="Socket"/> is collected without being disposed. The reactor
/// roots the driver, and the driver the native handle, so without this a dropped socket would stay open forever and
/// its context would never terminate. Only the socket references it; disposing the socket suppresses it.
/// </summary>
internal sealed class SocketAsyncDriverCollector(SocketAsyncDriver driver)
{
    // Fails what is still parked and stops watching the descriptor; the handle's own finalizer then closes the socket.
    ~SocketAsyncDriverCollector() => driver.Dispose();
}
