using Net.Zmq.Monitoring;
using Net.Zmq.Security;

namespace Net.Zmq.Samples;

/// <summary>
/// CURVE encryption with a <see cref="ZapAuthenticator"/> that knows one client key: that client talks and the server
/// reads its public key as "User-Id"; a client with an unknown key is refused during the handshake.
/// </summary>
internal sealed class CurveSample : ISample
{
    public string Name => "curve";

    public string Description => "CURVE server with ZAP: a known client key talks, an unknown one is refused";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        CurveKeyPair serverKeys = Curve.GenerateKeyPair();
        CurveKeyPair trustedKeys = Curve.GenerateKeyPair();
        CurveKeyPair strangerKeys = Curve.GenerateKeyPair();

        using var authenticator = new ZapAuthenticator(context);
        authenticator.DefaultPolicy.AllowCurveKey(trustedKeys.PublicKey);

        using Socket server = Sample.CreateSocket(context, SocketType.Pull);
        server.MakeCurveServer(serverKeys);
        using var events = new SocketMonitor(server, SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth);
        server.Bind(Sample.AnyPort);
        log.Info($"CURVE server {serverKeys.PublicKey} on {server.LastEndpoint}; ZAP trusts {trustedKeys.PublicKey}");

        using (Socket trusted = Sample.CreateSocket(context, SocketType.Push))
        {
            trusted.MakeCurveClient(trustedKeys, serverKeys.PublicKey);
            trusted.Connect(server.LastEndpoint);
            trusted.Send("sealed hello");

            using var message = new Message();
            server.Recv(message);
            string? userId = message.GetMetadata("User-Id");
            log.Check(message.ToString() == "sealed hello" && userId == trustedKeys.PublicKey,
                "the trusted client's message arrived with its public key as User-Id");
            log.Info($"trusted client: server got '{message}' from User-Id {userId}");
        }

        events.WaitFor(SocketEvents.HandshakeSucceeded, Sample.Timeout);

        using (Socket stranger = Sample.CreateSocket(context, SocketType.Push))
        {
            stranger.SetOption(SocketOption.Linger, 0);
            stranger.MakeCurveClient(strangerKeys, serverKeys.PublicKey);
            stranger.Connect(server.LastEndpoint);
            stranger.Send("let me in", SendFlags.DontWait);

            SocketMonitorEvent refused = events.WaitFor(SocketEvents.HandshakeFailedAuth | SocketEvents.HandshakeSucceeded, Sample.Timeout);
            log.Check(refused.Event == SocketEvents.HandshakeFailedAuth && refused.Value == 400, $"the unknown key is refused (got {refused.Event} {refused.Value})");
            log.Check(!server.TryRecvString(out _), "nothing from the unknown key arrived");
            log.Info($"unknown client key: {refused.Event}, ZAP status {refused.Value}");
        }
    }
}
