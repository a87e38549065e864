using System.Net;
using System.Net.Sockets;

namespace Net.Zmq.Tests.Support;

/// <summary>Endpoints that never collide between tests: tcp on an ephemeral loopback port, inproc under a fresh name.</summary>
internal static class Endpoints
{
    /// <summary>Loopback tcp with an ephemeral port: bind it, then read the socket's LastEndpoint (or use <see cref="BindTcp"/>).</summary>
    public const string EphemeralTcp = "tcp://127.0.0.1:*";

    /// <summary>An inproc endpoint name no other test uses.</summary>
    public static string NewInproc() => $"inproc://net-zmq-tests-{Guid.NewGuid():N}";

    /// <summary>
    /// A loopback tcp endpoint nobody listens on: a port the system handed out a moment ago and took back. For a socket
    /// that must connect and never reach a peer (its messages stay queued, it keeps retrying).
    /// </summary>
    public static string UnusedTcp()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return $"tcp://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}";
    }

    /// <summary>Binds <paramref name="socket"/> to <see cref="EphemeralTcp"/> and returns the endpoint it got, port included.</summary>
    public static string BindTcp(Socket socket)
    {
        socket.Bind(EphemeralTcp);
        return socket.LastEndpoint;
    }

    /// <summary>Binds <paramref name="socket"/> to a <see cref="NewInproc"/> name and returns it.</summary>
    public static string BindInproc(Socket socket)
    {
        string endpoint = NewInproc();
        socket.Bind(endpoint);
        return endpoint;
    }
}
