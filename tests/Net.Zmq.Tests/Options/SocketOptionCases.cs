namespace Net.Zmq.Tests.Options;

/// <summary>How a socket option may be used.</summary>
public enum OptionUse
{
    /// <summary>Set and read back.</summary>
    ReadWrite,

    /// <summary>Set only; reading it is an ArgumentException.</summary>
    WriteOnly,

    /// <summary>Read only; setting it is an ArgumentException.</summary>
    ReadOnly,

    /// <summary>Read-write, but only where libzmq was built with VMCI.</summary>
    Vmci,

    /// <summary>Read-write, but only where libzmq was built with GSSAPI (the system's libzmq5 is; the bundled one is not).</summary>
    Gssapi,

    /// <summary>Only where libzmq has the draft API (NotSupportedException elsewhere); read-write, or write-only when Read is null.</summary>
    Draft,

    /// <summary>Write-only, and only where libzmq has the draft API and the wss transport.</summary>
    Wss,
}

/// <summary>One socket option, how it is used, and the non-default value the tests give it.</summary>
/// <param name="Option">The option.</param>
/// <param name="Use">Read-write, write-only, read-only or VMCI.</param>
/// <param name="SocketType">A socket type on which libzmq accepts the option.</param>
/// <param name="Set">Sets the test value (not used for read-only options).</param>
/// <param name="Read">Reads the option as its natural .NET type (not used for write-only options).</param>
/// <param name="Expected">What <paramref name="Read"/> returns after <paramref name="Set"/>.</param>
/// <param name="Misuse">The forbidden direction: reading a write-only option, or setting a read-only one.</param>
public sealed record OptionCase(
    SocketOption Option,
    OptionUse Use,
    SocketType SocketType,
    Action<Socket>? Set,
    Func<Socket, object>? Read,
    object? Expected,
    Action<Socket>? Misuse);

/// <summary>
/// A test case for every <see cref="SocketOption"/>. <see cref="SocketOptionCoverageTests"/> fails when an option
/// has no entry here, so a newly added option cannot go untested.
/// </summary>
public static class SocketOptionCases
{
    /// <summary>A valid CURVE key in Z85 text.</summary>
    public const string Z85Key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";

    // UseFd accepts only a socket that is already listening: one for the whole test run, made before the cases.
    private static readonly System.Net.Sockets.Socket s_listener = Listen();

    private static readonly Dictionary<SocketOption, OptionCase> s_cases = Build();

    public static IReadOnlyDictionary<SocketOption, OptionCase> All => s_cases;

    public static OptionCase For(SocketOption option) => s_cases[option];

    public static TheoryData<SocketOption> WithUse(OptionUse use)
    {
        var data = new TheoryData<SocketOption>();
        foreach (OptionCase c in s_cases.Values.Where(c => c.Use == use).OrderBy(c => c.Option))
        {
            data.Add(c.Option);
        }

        return data;
    }

    private static System.Net.Sockets.Socket Listen()
    {
        var listener = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
        listener.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0));
        listener.Listen();
        return listener;
    }

    private static Dictionary<SocketOption, OptionCase> Build()
    {
        const SocketType Dealer = SocketType.Dealer;
        var cases = new List<OptionCase>
        {
            // Read-write options: a value that differs from libzmq's (or Net.Zmq's) default.
            Rw(SocketOption.Affinity, 3UL),
            Rw(SocketOption.RoutingId, new byte[] { 1, 2, 3 }),
            Rw(SocketOption.Rate, 200),
            Rw(SocketOption.RecoveryInterval, TimeSpan.FromSeconds(5)),
            Rw(SocketOption.SendBuffer, 131072),
            Rw(SocketOption.ReceiveBuffer, 131072),
            Rw(SocketOption.Linger, TimeSpan.FromMilliseconds(250)),
            Rw(SocketOption.ReconnectInterval, TimeSpan.FromMilliseconds(250)),
            Rw(SocketOption.Backlog, 50),
            Rw(SocketOption.ReconnectIntervalMax, TimeSpan.FromSeconds(5)),
            Rw(SocketOption.MaxMessageSize, 1_000_000L),
            Rw(SocketOption.SendHighWatermark, 500),
            Rw(SocketOption.ReceiveHighWatermark, 500),
            Rw(SocketOption.MulticastHops, 5),
            Rw(SocketOption.ReceiveTimeout, TimeSpan.FromMilliseconds(1500)),
            Rw(SocketOption.SendTimeout, TimeSpan.FromMilliseconds(1500)),
            Rw(SocketOption.Ipv4Only, false),
            Rw(SocketOption.TcpKeepalive, 1),
            Rw(SocketOption.TcpKeepaliveCount, 5),
            Rw(SocketOption.TcpKeepaliveIdle, 60),
            Rw(SocketOption.TcpKeepaliveInterval, 10),
            Rw(SocketOption.Immediate, true),
            Rw(SocketOption.Ipv6, true),
            Rw(SocketOption.PlainServer, true),
            Rw(SocketOption.PlainUsername, "alice"),
            Rw(SocketOption.PlainPassword, "s3cret"),
            Rw(SocketOption.CurveServer, true),
            Rw(SocketOption.CurvePublicKey, Z85Key),
            Rw(SocketOption.CurveSecretKey, Z85Key),
            Rw(SocketOption.CurveServerKey, Z85Key),
            Rw(SocketOption.Conflate, true),
            Rw(SocketOption.ZapDomain, "global"),
            Rw(SocketOption.TypeOfService, 0x28),
            Rw(SocketOption.GssapiServer, true) with { Use = OptionUse.Gssapi },
            Rw(SocketOption.GssapiPrincipal, "client@EXAMPLE.COM") with { Use = OptionUse.Gssapi },
            Rw(SocketOption.GssapiServicePrincipal, "zmq/server.example.com") with { Use = OptionUse.Gssapi },
            Rw(SocketOption.GssapiPlaintext, true) with { Use = OptionUse.Gssapi },
            Rw(SocketOption.HandshakeInterval, TimeSpan.FromSeconds(5)),
            Rw(SocketOption.SocksProxy, "127.0.0.1:1080"),
            Rw(SocketOption.InvertMatching, true, SocketType.Sub),
            Rw(SocketOption.HeartbeatInterval, TimeSpan.FromSeconds(1)),
            Rw(SocketOption.HeartbeatTtl, TimeSpan.FromSeconds(2)),
            Rw(SocketOption.HeartbeatTimeout, TimeSpan.FromSeconds(3)),
            Rw(SocketOption.ConnectTimeout, TimeSpan.FromSeconds(2)),
            Rw(SocketOption.TcpMaxRetransmitTimeout, TimeSpan.FromSeconds(3)),
            Rw(SocketOption.MulticastMaxTpdu, 1400),
            Rw(SocketOption.UseFd, (int)s_listener.Handle),
            Rw(SocketOption.GssapiPrincipalNameType, 1) with { Use = OptionUse.Gssapi },
            Rw(SocketOption.GssapiServicePrincipalNameType, 2) with { Use = OptionUse.Gssapi },
            Rw(SocketOption.BindToDevice, "lo"),
            // In zmq.h's draft section, yet handled by every libzmq 4.3 build.
            Rw(SocketOption.ZapEnforceDomain, true),
            Rw(SocketOption.LoopbackFastpath, true),
            Rw(SocketOption.MulticastLoop, false),
            Rw(SocketOption.SocksUsername, "bob"),
            Rw(SocketOption.SocksPassword, "hunter2"),
            Rw(SocketOption.ReconnectStop, 1),

            // Write-only options, each on a socket type that accepts it.
            Wo(SocketOption.Subscribe, SocketType.Sub, s => s.SetOption(SocketOption.Subscribe, "topic"), s => s.GetOption<byte[]>(SocketOption.Subscribe)),
            Wo(SocketOption.Unsubscribe, SocketType.Sub,
                s =>
                {
                    s.SetOption(SocketOption.Subscribe, "topic");
                    s.SetOption(SocketOption.Unsubscribe, "topic"u8);
                },
                s => s.GetOption<byte[]>(SocketOption.Unsubscribe)),
            Wo(SocketOption.RouterMandatory, SocketType.Router, s => s.SetOption(SocketOption.RouterMandatory, true), s => s.GetOption<bool>(SocketOption.RouterMandatory)),
            Wo(SocketOption.TcpAcceptFilter, Dealer, s => s.SetOption(SocketOption.TcpAcceptFilter, "127.0.0.1"), s => s.GetOption<string>(SocketOption.TcpAcceptFilter)),
            Wo(SocketOption.XPubVerbose, SocketType.XPub, s => s.SetOption(SocketOption.XPubVerbose, true), s => s.GetOption<bool>(SocketOption.XPubVerbose)),
            Wo(SocketOption.RouterRaw, SocketType.Router, s => s.SetOption(SocketOption.RouterRaw, true), s => s.GetOption<bool>(SocketOption.RouterRaw)),
            Wo(SocketOption.ProbeRouter, Dealer, s => s.SetOption(SocketOption.ProbeRouter, true), s => s.GetOption<bool>(SocketOption.ProbeRouter)),
            Wo(SocketOption.RequestCorrelate, SocketType.Req, s => s.SetOption(SocketOption.RequestCorrelate, true), s => s.GetOption<bool>(SocketOption.RequestCorrelate)),
            Wo(SocketOption.RequestRelaxed, SocketType.Req, s => s.SetOption(SocketOption.RequestRelaxed, true), s => s.GetOption<bool>(SocketOption.RequestRelaxed)),
            Wo(SocketOption.RouterHandover, SocketType.Router, s => s.SetOption(SocketOption.RouterHandover, true), s => s.GetOption<bool>(SocketOption.RouterHandover)),
            Wo(SocketOption.IpcFilterPid, Dealer, s => s.SetOption(SocketOption.IpcFilterPid, Environment.ProcessId), s => s.GetOption<int>(SocketOption.IpcFilterPid)),
            Wo(SocketOption.IpcFilterUid, Dealer, s => s.SetOption(SocketOption.IpcFilterUid, 1000), s => s.GetOption<int>(SocketOption.IpcFilterUid)),
            Wo(SocketOption.IpcFilterGid, Dealer, s => s.SetOption(SocketOption.IpcFilterGid, 1000), s => s.GetOption<int>(SocketOption.IpcFilterGid)),
            Wo(SocketOption.ConnectRoutingId, SocketType.Router, s => s.SetOption(SocketOption.ConnectRoutingId, "peer"u8), s => s.GetOption<byte[]>(SocketOption.ConnectRoutingId)),
            Wo(SocketOption.XPubNoDrop, SocketType.XPub, s => s.SetOption(SocketOption.XPubNoDrop, true), s => s.GetOption<bool>(SocketOption.XPubNoDrop)),
            Wo(SocketOption.XPubManual, SocketType.XPub, s => s.SetOption(SocketOption.XPubManual, true), s => s.GetOption<bool>(SocketOption.XPubManual)),
            Wo(SocketOption.XPubWelcomeMessage, SocketType.XPub, s => s.SetOption(SocketOption.XPubWelcomeMessage, "welcome"u8), s => s.GetOption<byte[]>(SocketOption.XPubWelcomeMessage)),
            Wo(SocketOption.StreamNotify, SocketType.Stream, s => s.SetOption(SocketOption.StreamNotify, true), s => s.GetOption<bool>(SocketOption.StreamNotify)),
            Wo(SocketOption.XPubVerboser, SocketType.XPub, s => s.SetOption(SocketOption.XPubVerboser, true), s => s.GetOption<bool>(SocketOption.XPubVerboser)),
            Wo(SocketOption.Metadata, Dealer, s => s.SetOption(SocketOption.Metadata, "X-Colour:blue"), s => s.GetOption<string>(SocketOption.Metadata)),
            Wo(SocketOption.XPubManualLastValue, SocketType.XPub, s => s.SetOption(SocketOption.XPubManualLastValue, true), s => s.GetOption<bool>(SocketOption.XPubManualLastValue)),
            Wo(SocketOption.OnlyFirstSubscribe, SocketType.XSub, s => s.SetOption(SocketOption.OnlyFirstSubscribe, true), s => s.GetOption<bool>(SocketOption.OnlyFirstSubscribe)),

            // Read-only options, with an attempt to set each through the overload of its kind.
            Ro(SocketOption.ReceiveMore, s => s.GetOption<bool>(SocketOption.ReceiveMore), s => s.SetOption(SocketOption.ReceiveMore, true)),
            Ro(SocketOption.FileDescriptor, s => s.GetOption<long>(SocketOption.FileDescriptor), s => s.SetOption(SocketOption.FileDescriptor, 3L)),
            Ro(SocketOption.Events, s => s.GetOption<int>(SocketOption.Events), s => s.SetOption(SocketOption.Events, 1)),
            Ro(SocketOption.Type, s => s.GetOption<int>(SocketOption.Type), s => s.SetOption(SocketOption.Type, (int)SocketType.Pub)),
            Ro(SocketOption.LastEndpoint, s => s.GetOption<string>(SocketOption.LastEndpoint), s => s.SetOption(SocketOption.LastEndpoint, "tcp://127.0.0.1:5555")),
            Ro(SocketOption.Mechanism, s => s.GetOption<int>(SocketOption.Mechanism), s => s.SetOption(SocketOption.Mechanism, (int)SecurityMechanism.Plain)),
            Ro(SocketOption.ThreadSafe, s => s.GetOption<bool>(SocketOption.ThreadSafe), s => s.SetOption(SocketOption.ThreadSafe, true)),

            // VMCI options: read-write where libzmq has VMCI.
            Vmci(SocketOption.VmciBufferSize, 1UL << 20),
            Vmci(SocketOption.VmciBufferMinSize, 1UL << 10),
            Vmci(SocketOption.VmciBufferMaxSize, 1UL << 22),
            new(SocketOption.VmciConnectTimeout, OptionUse.Vmci, Dealer,
                s => s.SetOption(SocketOption.VmciConnectTimeout, TimeSpan.FromSeconds(2)),
                s => s.GetOption<TimeSpan>(SocketOption.VmciConnectTimeout), TimeSpan.FromSeconds(2), null),

            // Draft only: read-write or write-only where libzmq has the draft API.
            DraftRw(SocketOption.RouterNotify, 3, SocketType.Router),
            DraftRw(SocketOption.InBatchSize, 4096),
            DraftRw(SocketOption.OutBatchSize, 4096),
            DraftRw(SocketOption.Priority, 1),
            DraftWo(SocketOption.HelloMessage, Dealer, s => s.SetOption(SocketOption.HelloMessage, "hello"u8), s => s.GetOption<byte[]>(SocketOption.HelloMessage)),
            DraftWo(SocketOption.DisconnectMessage, SocketType.Router, s => s.SetOption(SocketOption.DisconnectMessage, "gone"u8), s => s.GetOption<byte[]>(SocketOption.DisconnectMessage)),

            // Draft and wss only.
            WssWo(SocketOption.WssKeyPem, "-----BEGIN PRIVATE KEY-----"),
            WssWo(SocketOption.WssCertPem, "-----BEGIN CERTIFICATE-----"),
            WssWo(SocketOption.WssTrustPem, "-----BEGIN CERTIFICATE-----"),
            WssWo(SocketOption.WssHostname, "example.com"),
            new(SocketOption.WssTrustSystem, OptionUse.Wss, Dealer, s => s.SetOption(SocketOption.WssTrustSystem, true), null, null,
                s => s.GetOption<bool>(SocketOption.WssTrustSystem)),
        };

        return cases.ToDictionary(c => c.Option);
    }

    private static OptionCase Rw(SocketOption option, int value, SocketType type = SocketType.Dealer) =>
        new(option, OptionUse.ReadWrite, type, s => s.SetOption(option, value), s => s.GetOption<int>(option), value, null);

    private static OptionCase Rw(SocketOption option, long value) =>
        new(option, OptionUse.ReadWrite, SocketType.Dealer, s => s.SetOption(option, value), s => s.GetOption<long>(option), value, null);

    private static OptionCase Rw(SocketOption option, ulong value) =>
        new(option, OptionUse.ReadWrite, SocketType.Dealer, s => s.SetOption(option, value), s => s.GetOption<ulong>(option), value, null);

    private static OptionCase Rw(SocketOption option, bool value, SocketType type = SocketType.Dealer) =>
        new(option, OptionUse.ReadWrite, type, s => s.SetOption(option, value), s => s.GetOption<bool>(option), value, null);

    private static OptionCase Rw(SocketOption option, TimeSpan value) =>
        new(option, OptionUse.ReadWrite, SocketType.Dealer, s => s.SetOption(option, value), s => s.GetOption<TimeSpan>(option), value, null);

    private static OptionCase Rw(SocketOption option, string value) =>
        new(option, OptionUse.ReadWrite, SocketType.Dealer, s => s.SetOption(option, value), s => s.GetOption<string>(option), value, null);

    private static OptionCase Rw(SocketOption option, byte[] value) =>
        new(option, OptionUse.ReadWrite, SocketType.Dealer, s => s.SetOption(option, value), s => s.GetOption<byte[]>(option), value, null);

    private static OptionCase Wo(SocketOption option, SocketType type, Action<Socket> set, Func<Socket, object> read) =>
        new(option, OptionUse.WriteOnly, type, set, null, null, s => read(s));

    private static OptionCase Ro(SocketOption option, Func<Socket, object> read, Action<Socket> write) =>
        new(option, OptionUse.ReadOnly, SocketType.Dealer, null, read, null, write);

    private static OptionCase DraftRw(SocketOption option, int value, SocketType type = SocketType.Dealer) =>
        new(option, OptionUse.Draft, type, s => s.SetOption(option, value), s => s.GetOption<int>(option), value, null);

    private static OptionCase DraftWo(SocketOption option, SocketType type, Action<Socket> set, Func<Socket, object> read) =>
        new(option, OptionUse.Draft, type, set, null, null, s => read(s));

    private static OptionCase WssWo(SocketOption option, string value) =>
        new(option, OptionUse.Wss, SocketType.Dealer, s => s.SetOption(option, value), null, null, s => s.GetOption<string>(option));

    private static OptionCase Vmci(SocketOption option, ulong value) =>
        new(option, OptionUse.Vmci, SocketType.Dealer, s => s.SetOption(option, value), s => s.GetOption<ulong>(option), value, null);
}
