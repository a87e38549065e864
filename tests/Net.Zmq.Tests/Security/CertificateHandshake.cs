using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>A CURVE server and one client configured from certificates, and what the server saw of the handshake.</summary>
internal static class CertificateHandshake
{
    /// <summary>
    /// Connects a client holding <paramref name="client"/> to a server holding <paramref name="server"/>, checked by
    /// <paramref name="auth"/>'s policies; returns the server's handshake event and, when it succeeded, the User-Id of
    /// the client's first message.
    /// </summary>
    internal static (SocketEvents Event, string? UserId) Attempt(Context context, CurveCertificate server, CurveCertificate client)
    {
        using Socket pull = Sockets.New(context, SocketType.Pull);
        pull.MakeCurveServer(server.KeyPair);
        using var events = new SocketMonitor(pull, SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth | SocketEvents.HandshakeFailedProtocol);
        string endpoint = Endpoints.BindTcp(pull);

        using Socket push = Sockets.New(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.MakeCurveClient(client.KeyPair, server.PublicKey);
        push.Connect(endpoint);
        push.Send("hello", SendFlags.DontWait);

        SocketMonitorEvent handshake = events.WaitFor(
            SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth | SocketEvents.HandshakeFailedProtocol, Timeouts.Wait);
        if (handshake.Event != SocketEvents.HandshakeSucceeded)
        {
            return (handshake.Event, null);
        }

        using var message = new Message();
        Assert.True(pull.Recv(message));
        Assert.Equal("hello", message.ToString());
        return (handshake.Event, message.GetMetadata("User-Id"));
    }
}
