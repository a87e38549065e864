using Net.Zmq.Monitoring;
using Net.Zmq.Security;

namespace Net.Zmq.Samples;

/// <summary>
/// CURVE certificate files, as CZMQ's zcert and pyzmq's zmq.auth keep them: the server and a client save theirs, the
/// client's public file goes into the directory the server's <see cref="ZapAuthenticator"/> trusts, each side loads
/// its own secret file, and the client gets in while a client whose certificate is not in the directory is refused.
/// </summary>
internal sealed class CertificatesSample : ISample
{
    public string Name => "certificates";

    public string Description => "CURVE certificate files: save, load, and trust a directory of client certificates";

    public void Run(SampleLog log)
    {
        string root = Directory.CreateTempSubdirectory("net-zmq-certificates-").FullName;
        try
        {
            Run(log, root);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static void Run(SampleLog log, string root)
    {
        // 1. Each side generates its certificate once and keeps the secret file (written readable by its owner only).
        string trusted = Directory.CreateDirectory(Path.Combine(root, "trusted-clients")).FullName;
        string serverPath = Path.Combine(root, "server.key");
        string clientPath = Path.Combine(root, "client.key");
        CurveCertificate.Generate().SetMetadata("name", "orders server").Save(serverPath);
        CurveCertificate.Generate().SetMetadata("name", "billing client").Save(clientPath);

        // 2. The client's public file is what the server's operator receives; it goes into the trusted directory.
        File.Copy(clientPath, Path.Combine(trusted, "client.key"));
        log.Info($"client's public certificate, as shared:{Environment.NewLine}{File.ReadAllText(clientPath).TrimEnd()}");
        if (!OperatingSystem.IsWindows())
        {
            log.Info($"{Path.GetFileName(serverPath)}_secret is {File.GetUnixFileMode(serverPath + "_secret")}");
        }

        // 3. The server loads its secret file and trusts the directory; the client loads its own secret file.
        CurveCertificate server = CurveCertificate.Load(serverPath + CurveCertificate.SecretFileSuffix);
        CurveCertificate client = CurveCertificate.Load(clientPath + CurveCertificate.SecretFileSuffix);
        CurveCertificate serverPublic = CurveCertificate.Load(serverPath); // all a client needs of the server
        log.Check(!serverPublic.HasSecretKey, "the public file holds no secret key");

        using var context = new Context();
        using var authenticator = new ZapAuthenticator(context);
        authenticator.DefaultPolicy.AllowCurveCertificates(trusted);
        using Socket pull = Sample.CreateSocket(context, SocketType.Pull);
        pull.MakeCurveServer(server.KeyPair);
        using var events = new SocketMonitor(pull, SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth);
        pull.Bind(Sample.AnyPort);
        log.Info($"'{server.GetMetadata("name")}' on {pull.LastEndpoint} trusts the certificates in {Path.GetFileName(trusted)}/");

        using (Socket push = Sample.CreateSocket(context, SocketType.Push))
        {
            push.MakeCurveClient(client.KeyPair, serverPublic.PublicKey);
            push.Connect(pull.LastEndpoint);
            push.Send("invoice 42");
            SocketMonitorEvent handshake = events.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Sample.Timeout);
            using var message = new Message();
            pull.Recv(message);
            string? userId = message.GetMetadata("User-Id");
            log.Check(handshake.Event == SocketEvents.HandshakeSucceeded && userId == client.PublicKey,
                $"the trusted client should get in with its key as User-Id, not {handshake.Event} / {userId}");
            log.Info($"'{client.GetMetadata("name")}': {handshake.Event}, server got '{message}' from User-Id {userId}");
        }

        // 4. A client with a certificate of its own that nobody put in the directory is refused during the handshake.
        using (Socket stranger = Sample.CreateSocket(context, SocketType.Push))
        {
            stranger.SetOption(SocketOption.Linger, 0);
            stranger.MakeCurveClient(CurveCertificate.Generate().KeyPair, serverPublic.PublicKey);
            stranger.Connect(pull.LastEndpoint);
            stranger.Send("let me in", SendFlags.DontWait);
            SocketMonitorEvent handshake = events.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Sample.Timeout);
            log.Check(handshake.Event == SocketEvents.HandshakeFailedAuth, $"the unknown client should be refused, not {handshake.Event}");
            log.Info($"unknown certificate: {handshake.Event}, ZAP status {handshake.Value}");
        }
    }
}
