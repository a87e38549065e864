using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Proxies;

/// <summary>The two ends the proxy tests wire up: sockets the proxy runs on, and peers connected to them.</summary>
internal static class ProxySockets
{
    /// <summary>A socket for the proxy to run on, bound to <paramref name="endpoint"/> or a fresh inproc name; no timeouts, as the proxy owns it.</summary>
    public static Socket Bound(Context context, SocketType type, string? endpoint = null)
    {
        var socket = new Socket(context, type);
        socket.Bind(endpoint ?? Endpoints.NewInproc());
        return socket;
    }

    /// <summary>A peer with timeouts, connected to where <paramref name="proxySide"/> is bound.</summary>
    public static Socket Connected(Context context, SocketType type, Socket proxySide)
    {
        Socket socket = Sockets.New(context, type);
        socket.Connect(proxySide.LastEndpoint);
        return socket;
    }
}
