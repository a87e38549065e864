namespace Net.Zmq.Internal;

/// <summary>
/// One call on a <see cref="Socket"/>, from <see cref="Socket.BeginCall"/> to <see cref="Dispose"/>: while it lasts the
/// calling thread owns the socket, the native socket stays open (a concurrent <see cref="Socket.Dispose"/> closes it
/// when the call ends), and, once the socket is in async use, the async driver's gate is held so the reactor never
/// calls libzmq on it at the same time. <c>using SocketCall call = BeginCall();</c> then pass <see cref="Native"/> to libzmq.
/// </summary>
internal readonly ref struct SocketCall
{
    private readonly Socket _socket;

    internal SocketCall(Socket socket, nint native)
    {
        _socket = socket;
        Native = native;
    }

    /// <summary>The native socket, valid until <see cref="Dispose"/>.</summary>
    internal nint Native { get; }

    /// <summary>Ends the call.</summary>
    public void Dispose() => _socket.EndCall();
}
