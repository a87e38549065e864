using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Reliability.Tests.Hostile;

/// <summary>A bound server socket under attack, with a well-behaved peer that checks it is still served.</summary>
internal sealed class HostileTarget : IDisposable
{
    private readonly Socket _server;
    private readonly Socket _good;
    private readonly Action<HostileTarget> _verify;
    private int _checks;

    private HostileTarget(Socket server, Socket good, string mechanism, string claimedPeerType, Action<HostileTarget> verify)
    {
        _server = server;
        _good = good;
        Mechanism = mechanism;
        ClaimedPeerType = claimedPeerType;
        _verify = verify;
    }

    /// <summary>The server's TCP endpoint.</summary>
    public string Endpoint => _server.LastEndpoint;

    /// <summary>The security mechanism a raw client must name in its greeting to get past it.</summary>
    public string Mechanism { get; }

    /// <summary>The socket type a raw client announces in READY to be a valid peer.</summary>
    public string ClaimedPeerType { get; }

    /// <summary>Binds a server of kind <paramref name="kind"/> (ROUTER, PULL, SUB, CURVE ROUTER) and connects its good peer.</summary>
    public static HostileTarget Create(Context context, string kind, long maxMessageSize)
    {
        (SocketType serverType, SocketType goodType, string claimed) = kind switch
        {
            "ROUTER" or "CURVE ROUTER" => (SocketType.Router, SocketType.Dealer, "DEALER"),
            "PULL" => (SocketType.Pull, SocketType.Push, "PUSH"),
            "SUB" => (SocketType.Sub, SocketType.Pub, "PUB"),
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "unknown target"),
        };
        var server = Sockets.New(context, serverType);
        var good = Sockets.New(context, goodType);
        server.SetOption(SocketOption.MaxMessageSize, maxMessageSize);
        server.SetOption(SocketOption.HandshakeInterval, 2000);
        string mechanism = "NULL";
        if (kind == "CURVE ROUTER")
        {
            CurveKeyPair serverKeys = Curve.GenerateKeyPair();
            server.MakeCurveServer(serverKeys);
            good.MakeCurveClient(Curve.GenerateKeyPair(), serverKeys.PublicKey);
            mechanism = "CURVE";
        }

        if (serverType == SocketType.Sub)
        {
            server.Subscribe("");
        }

        Endpoints.BindTcp(server);
        good.Connect(server.LastEndpoint);
        var target = new HostileTarget(server, good, mechanism, claimed, serverType switch
        {
            SocketType.Router => VerifyRouter,
            _ => VerifyPullOrSub,
        });
        if (serverType == SocketType.Sub)
        {
            Connections.AwaitSubscription(good, server, "probe");
        }

        return target;
    }

    /// <summary>Makes one exchange with the good peer; fails the test when the server does not serve it.</summary>
    public void VerifyGoodPeer()
    {
        _checks++;
        _verify(this);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _good.Dispose();
        _server.Dispose();
    }

    private string Payload => $"good {_checks}";

    /// <summary>Raw clients that speak ZMTP 1.0 (a first byte other than 0xFF) may deliver junk messages: skip them.</summary>
    public long ForeignMessages { get; private set; }

    private void ReceivePayload(Socket socket)
    {
        using var message = new MultipartMessage();
        while (true)
        {
            socket.RecvMultipart(message);
            if (message[^1].ToString() == Payload)
            {
                break;
            }

            ForeignMessages++;
        }

        if (socket.Type == SocketType.Router)
        {
            Assert.True(socket.Send(message[0].Data, SendFlags.SendMore));
            Assert.True(socket.Send("reply " + Payload));
        }
    }

    private static void VerifyRouter(HostileTarget target)
    {
        Assert.True(target._good.Send(target.Payload));
        target.ReceivePayload(target._server);
        Assert.Equal("reply " + target.Payload, target._good.RecvString());
    }

    private static void VerifyPullOrSub(HostileTarget target)
    {
        Assert.True(target._good.Send(target.Payload));
        target.ReceivePayload(target._server);
    }
}
