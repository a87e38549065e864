namespace Net.Zmq.Tests.Support;

/// <summary>Contexts with particular options, for the tests that need more than <see cref="Sockets.NewContext"/>.</summary>
internal static class Contexts
{
    /// <summary>
    /// A context with one I/O thread that lets <paramref name="maxSockets"/> sockets be open at once (libzmq's default is
    /// 1,023) and, like <see cref="Sockets.NewContext"/>, no linger: for tests that open many sockets, or open and
    /// dispose them in a tight loop that can run ahead of libzmq closing them.
    /// </summary>
    public static Context WithMaxSockets(int maxSockets) => new(ioThreads: 1, maxSockets) { DefaultLinger = TimeSpan.Zero };
}
