namespace Net.Zmq.Samples;

/// <summary>Values and helpers every sample shares.</summary>
internal static class Sample
{
    /// <summary>
    /// How long any blocking step may take: receives get it as their ReceiveTimeout, so a lost message ends the sample
    /// with an exception instead of hanging it.
    /// </summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    /// <summary>An ephemeral tcp port on the loopback interface; read the real one back with <see cref="Socket.LastEndpoint"/>.</summary>
    public const string AnyPort = "tcp://127.0.0.1:*";

    /// <summary>An inproc endpoint name that nothing else in the process uses.</summary>
    public static string UniqueInproc(string purpose) => $"inproc://{purpose}-{Guid.NewGuid():N}";

    /// <summary>Creates a socket whose blocking receives give up after <see cref="Timeout"/>.</summary>
    public static Socket CreateSocket(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.ReceiveTimeout, Timeout);
        return socket;
    }
}
