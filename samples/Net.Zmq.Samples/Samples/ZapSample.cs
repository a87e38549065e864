using Net.Zmq.Monitoring;
using Net.Zmq.Security;

namespace Net.Zmq.Samples;

/// <summary>
/// A PLAIN server checked by a <see cref="ZapAuthenticator"/>: a client with the right password talks and the server reads
/// its authenticated user name from the message's "User-Id" metadata; a client with a wrong password is refused during
/// the handshake, which the server's monitor reports as HandshakeFailedAuth.
/// </summary>
internal sealed class ZapSample : ISample
{
    public string Name => "zap";

    public string Description => "PLAIN server with a ZapAuthenticator: the right password talks, a wrong one is refused";

    public void Run(SampleLog log)
    {
        using var context = new Context();

        // The authenticator answers ZAP requests for every PLAIN or CURVE server socket of this context.
        using var authenticator = new ZapAuthenticator(context);
        authenticator.DefaultPolicy.AllowAddress("127.0.0.1").AddPlainUser("admin", "s3cret");

        using Socket server = Sample.CreateSocket(context, SocketType.Pull);
        server.SetOption(SocketOption.PlainServer, true);
        using var serverEvents = new SocketMonitor(server, SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth);
        server.Bind(Sample.AnyPort);
        string endpoint = server.LastEndpoint;
        log.Info($"PLAIN server on {endpoint}; ZAP allows 127.0.0.1 and user 'admin'");

        // 1. The right user name and password: the handshake succeeds and the message arrives.
        using (Socket admin = Sample.CreateSocket(context, SocketType.Push))
        {
            admin.SetOption(SocketOption.PlainUsername, "admin");
            admin.SetOption(SocketOption.PlainPassword, "s3cret");
            admin.Connect(endpoint);
            admin.Send("hello from admin");

            SocketMonitorEvent handshake = serverEvents.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Sample.Timeout);
            log.Check(handshake.Event == SocketEvents.HandshakeSucceeded, $"admin's handshake should succeed, not {handshake.Event}");

            using var message = new Message();
            server.Recv(message);
            string? userId = message.GetMetadata("User-Id");
            log.Check(message.ToString() == "hello from admin" && userId == "admin", "the server got admin's message with User-Id 'admin'");
            log.Info($"admin/s3cret: {handshake.Event}; server got '{message}' with User-Id '{userId}' from {message.GetMetadata("Peer-Address")}");
        }

        // 2. A wrong password: ZAP answers 400 and libzmq closes the connection before any message gets through.
        using (Socket intruder = Sample.CreateSocket(context, SocketType.Push))
        {
            intruder.SetOption(SocketOption.Linger, 0); // its message will never be delivered: do not keep it on close
            intruder.SetOption(SocketOption.PlainUsername, "admin");
            intruder.SetOption(SocketOption.PlainPassword, "guess");
            intruder.Connect(endpoint);
            intruder.Send("let me in", SendFlags.DontWait);

            SocketMonitorEvent handshake = serverEvents.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Sample.Timeout);
            log.Check(handshake.Event == SocketEvents.HandshakeFailedAuth && handshake.Value == 400,
                $"the wrong password should end in HandshakeFailedAuth 400, not {handshake.Event} {handshake.Value}");
            log.Info($"admin/guess: {handshake.Event}, ZAP status {handshake.Value}");

            // The connection is gone, so its message can never arrive.
            bool leaked = server.TryRecvString(out string? text);
            log.Check(!leaked, $"nothing from the refused client should arrive, got '{text}'");
            log.Info($"server received nothing from the refused client; ZAP requests answered: {authenticator.RequestCount}");
        }
    }
}
