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
    /// A loopback tcp endpoint nobody listens on, for a socket that must connect and never reach a peer (its messages
    /// stay queued, it keeps retrying): a port found free, below the systems' ephemeral ranges (Linux 32768-60999,
    /// Windows and macOS 49152-65535). An ephemeral port would go back to the system, which could hand it to another
    /// test's bind to <see cref="EphemeralTcp"/> while this socket retries it, and deliver its queued messages there.
    /// </summary>
    public static string UnusedTcp()
    {
        for (int attempt = 1; ; attempt++)
        {
            int port = Random.Shared.Next(20000, 32768);
            try
            {
                using var listener = new TcpListener(IPAddress.Loopback, port);
                listener.Start();
                return $"tcp://127.0.0.1:{port}";
            }
            catch (SocketException) when (attempt < 100)
            {
                // In use: try another.
            }
        }
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
