namespace Net.Zmq.Tests.Support;

/// <summary>
/// Contexts and sockets made for tests: a context that never waits for unsent messages when disposed, and sockets
/// whose blocking receives and sends give up (EAGAIN) after <see cref="Timeouts.Wait"/> instead of hanging.
/// </summary>
internal static class Sockets
{
    /// <summary>A context whose sockets do not linger, so disposing it never waits.</summary>
    public static Context NewContext() => new() { DefaultLinger = TimeSpan.Zero };

    /// <summary>
    /// A context like <see cref="NewContext()"/> with room for <paramref name="maxSockets"/> sockets (libzmq's default is
    /// 1023) and one I/O thread, for tests that open a thousand sockets or more.
    /// </summary>
    public static Context NewContext(int maxSockets) => new(ioThreads: 1, maxSockets) { DefaultLinger = TimeSpan.Zero };

    /// <summary>
    /// A context with the library's default linger (1 s), for tests whose last frames must still be delivered after
    /// the socket that sent them is disposed.
    /// </summary>
    public static Context NewLingeringContext() => new();

    /// <summary>A socket of <paramref name="type"/> in <paramref name="context"/>, <see cref="WithTimeouts">with timeouts</see>.</summary>
    public static Socket New(Context context, SocketType type) => new Socket(context, type).WithTimeouts();

    /// <summary>Gives <paramref name="socket"/> a ReceiveTimeout and SendTimeout of <see cref="Timeouts.WaitMs"/>; returns it.</summary>
    public static Socket WithTimeouts(this Socket socket)
    {
        socket.SetOption(SocketOption.ReceiveTimeout, Timeouts.WaitMs);
        socket.SetOption(SocketOption.SendTimeout, Timeouts.WaitMs);
        return socket;
    }
}
