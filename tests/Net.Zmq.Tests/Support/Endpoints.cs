namespace Net.Zmq.Tests.Support;

/// <summary>Endpoints that never collide between tests.</summary>
internal static class Endpoints
{
    /// <summary>An inproc name unique to the caller.</summary>
    public static string UniqueInproc() => $"inproc://{Guid.NewGuid():N}";

    /// <summary>Loopback tcp with an ephemeral port: bind it, then read the socket's LastEndpoint.</summary>
    public const string EphemeralTcp = "tcp://127.0.0.1:*";
}
