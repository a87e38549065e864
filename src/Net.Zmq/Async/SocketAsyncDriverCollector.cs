namespace Net.Zmq.Async;

/// <summary>
/// Disposes a socket's async driver when the <see cref="Socket"/> is collected without being disposed. The reactor
/// roots the driver, and the driver the native handle, so without this a dropped socket would stay open forever and
/// its context would never terminate. Only the socket's gate references it; disposing the socket disposes it.
/// </summary>
internal sealed class SocketAsyncDriverCollector(SocketAsyncDriver driver) : IDisposable
{
    // Fails what is still parked and stops watching the descriptor; the handle's own finalizer then closes the socket.
    ~SocketAsyncDriverCollector() => driver.Dispose();

    /// <summary>Called when the socket was disposed, and its driver with it: nothing is left for the finalizer.</summary>
    public void Dispose() => GC.SuppressFinalize(this);
}
