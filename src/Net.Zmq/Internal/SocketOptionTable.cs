namespace Net.Zmq.Internal;

/// <summary>
/// The kind, access and availability of every <see cref="SocketOption"/>, looked up by the enum's value, which is
/// libzmq's option number.
/// </summary>
internal static class SocketOptionTable
{
    private static readonly OptionInfo[] s_table = Build();

    internal static OptionInfo Get(SocketOption option) => OptionInfo.Find(s_table, option, (int)option, "a socket option");

    private static OptionInfo[] Build()
    {
        var t = new OptionInfo[(int)SocketOption.Priority + 1];
        void Set(SocketOption o, OptionKind k, OptionAccess a = OptionAccess.ReadWrite, OptionAvailability v = OptionAvailability.Always) =>
            t[(int)o] = new((int)o, k, a, v);
        const OptionAccess R = OptionAccess.Read, W = OptionAccess.Write, RW = OptionAccess.ReadWrite;
        const OptionAvailability Draft = OptionAvailability.Draft, Wss = OptionAvailability.Wss;

        Set(SocketOption.Affinity, OptionKind.UInt64);
        Set(SocketOption.RoutingId, OptionKind.Binary);
        Set(SocketOption.Subscribe, OptionKind.Binary, W);
        Set(SocketOption.Unsubscribe, OptionKind.Binary, W);
        Set(SocketOption.Rate, OptionKind.Int32);
        Set(SocketOption.RecoveryInterval, OptionKind.Milliseconds);
        Set(SocketOption.SendBuffer, OptionKind.Int32);
        Set(SocketOption.ReceiveBuffer, OptionKind.Int32);
        Set(SocketOption.ReceiveMore, OptionKind.Boolean, R);
        Set(SocketOption.FileDescriptor, OptionKind.FileDescriptor, R);
        Set(SocketOption.Events, OptionKind.Int32, R);
        Set(SocketOption.Type, OptionKind.Int32, R);
        Set(SocketOption.Linger, OptionKind.Milliseconds);
        Set(SocketOption.ReconnectInterval, OptionKind.Milliseconds);
        Set(SocketOption.Backlog, OptionKind.Int32);
        Set(SocketOption.ReconnectIntervalMax, OptionKind.Milliseconds);
        Set(SocketOption.MaxMessageSize, OptionKind.Int64);
        Set(SocketOption.SendHighWatermark, OptionKind.Int32);
        Set(SocketOption.ReceiveHighWatermark, OptionKind.Int32);
        Set(SocketOption.MulticastHops, OptionKind.Int32);
        Set(SocketOption.ReceiveTimeout, OptionKind.Milliseconds);
        Set(SocketOption.SendTimeout, OptionKind.Milliseconds);
        Set(SocketOption.Ipv4Only, OptionKind.Boolean);
        Set(SocketOption.LastEndpoint, OptionKind.String, R);
        Set(SocketOption.RouterMandatory, OptionKind.Boolean, W);
        Set(SocketOption.TcpKeepalive, OptionKind.Int32);
        Set(SocketOption.TcpKeepaliveCount, OptionKind.Int32);
        Set(SocketOption.TcpKeepaliveIdle, OptionKind.Int32);
        Set(SocketOption.TcpKeepaliveInterval, OptionKind.Int32);
        Set(SocketOption.TcpAcceptFilter, OptionKind.String, W);
        Set(SocketOption.Immediate, OptionKind.Boolean);
        Set(SocketOption.XPubVerbose, OptionKind.Boolean, W);
        Set(SocketOption.RouterRaw, OptionKind.Boolean, W);
        Set(SocketOption.Ipv6, OptionKind.Boolean);
        Set(SocketOption.Mechanism, OptionKind.Int32, R);
        Set(SocketOption.PlainServer, OptionKind.Boolean);
        Set(SocketOption.PlainUsername, OptionKind.String);
        Set(SocketOption.PlainPassword, OptionKind.String);
        Set(SocketOption.CurveServer, OptionKind.Boolean);
        Set(SocketOption.CurvePublicKey, OptionKind.CurveKey);
        Set(SocketOption.CurveSecretKey, OptionKind.CurveKey);
        Set(SocketOption.CurveServerKey, OptionKind.CurveKey);
        Set(SocketOption.ProbeRouter, OptionKind.Boolean, W);
        Set(SocketOption.RequestCorrelate, OptionKind.Boolean, W);
        Set(SocketOption.RequestRelaxed, OptionKind.Boolean, W);
        Set(SocketOption.Conflate, OptionKind.Boolean);
        Set(SocketOption.ZapDomain, OptionKind.String);
        Set(SocketOption.RouterHandover, OptionKind.Boolean, W);
        Set(SocketOption.TypeOfService, OptionKind.Int32);
        Set(SocketOption.IpcFilterPid, OptionKind.Int32, W);
        Set(SocketOption.IpcFilterUid, OptionKind.Int32, W);
        Set(SocketOption.IpcFilterGid, OptionKind.Int32, W);
        Set(SocketOption.ConnectRoutingId, OptionKind.Binary, W);
        Set(SocketOption.GssapiServer, OptionKind.Boolean);
        Set(SocketOption.GssapiPrincipal, OptionKind.String);
        Set(SocketOption.GssapiServicePrincipal, OptionKind.String);
        Set(SocketOption.GssapiPlaintext, OptionKind.Boolean);
        Set(SocketOption.HandshakeInterval, OptionKind.Milliseconds);
        Set(SocketOption.SocksProxy, OptionKind.String);
        Set(SocketOption.XPubNoDrop, OptionKind.Boolean, W);
        Set(SocketOption.XPubManual, OptionKind.Boolean, W);
        Set(SocketOption.XPubWelcomeMessage, OptionKind.Binary, W);
        Set(SocketOption.StreamNotify, OptionKind.Boolean, W);
        Set(SocketOption.InvertMatching, OptionKind.Boolean);
        Set(SocketOption.HeartbeatInterval, OptionKind.Milliseconds);
        Set(SocketOption.HeartbeatTtl, OptionKind.Milliseconds);
        Set(SocketOption.HeartbeatTimeout, OptionKind.Milliseconds);
        Set(SocketOption.XPubVerboser, OptionKind.Boolean, W);
        Set(SocketOption.ConnectTimeout, OptionKind.Milliseconds);
        Set(SocketOption.TcpMaxRetransmitTimeout, OptionKind.Milliseconds);
        Set(SocketOption.ThreadSafe, OptionKind.Boolean, R);
        Set(SocketOption.MulticastMaxTpdu, OptionKind.Int32);
        Set(SocketOption.VmciBufferSize, OptionKind.UInt64);
        Set(SocketOption.VmciBufferMinSize, OptionKind.UInt64);
        Set(SocketOption.VmciBufferMaxSize, OptionKind.UInt64);
        Set(SocketOption.VmciConnectTimeout, OptionKind.Milliseconds);
        Set(SocketOption.UseFd, OptionKind.Int32);
        Set(SocketOption.GssapiPrincipalNameType, OptionKind.Int32);
        Set(SocketOption.GssapiServicePrincipalNameType, OptionKind.Int32);
        Set(SocketOption.BindToDevice, OptionKind.String);

        // The draft section of zmq.h. libzmq 4.3 handles some of these in every build, the rest only with the draft API.
        Set(SocketOption.ZapEnforceDomain, OptionKind.Boolean);
        Set(SocketOption.LoopbackFastpath, OptionKind.Boolean);
        Set(SocketOption.Metadata, OptionKind.String, W);
        Set(SocketOption.MulticastLoop, OptionKind.Boolean);
        Set(SocketOption.RouterNotify, OptionKind.Int32, RW, Draft);
        Set(SocketOption.XPubManualLastValue, OptionKind.Boolean, W);
        Set(SocketOption.SocksUsername, OptionKind.String);
        Set(SocketOption.SocksPassword, OptionKind.String);
        Set(SocketOption.InBatchSize, OptionKind.Int32, RW, Draft);
        Set(SocketOption.OutBatchSize, OptionKind.Int32, RW, Draft);
        Set(SocketOption.WssKeyPem, OptionKind.String, W, Wss);
        Set(SocketOption.WssCertPem, OptionKind.String, W, Wss);
        Set(SocketOption.WssTrustPem, OptionKind.String, W, Wss);
        Set(SocketOption.WssHostname, OptionKind.String, W, Wss);
        Set(SocketOption.WssTrustSystem, OptionKind.Boolean, W, Wss);
        Set(SocketOption.OnlyFirstSubscribe, OptionKind.Boolean, W);
        Set(SocketOption.ReconnectStop, OptionKind.Int32);
        Set(SocketOption.HelloMessage, OptionKind.Binary, W, Draft);
        Set(SocketOption.DisconnectMessage, OptionKind.Binary, W, Draft);
        Set(SocketOption.Priority, OptionKind.Int32, RW, Draft);
        return t;
    }
}
