using NetMQ;
using NetMQ.Sockets;
using Net.Zmq.Monitoring;
using SocketEvents = Net.Zmq.Monitoring.SocketEvents;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Reliability.Tests.Interop;

/// <summary>
/// Net.Zmq (libzmq) talking ZMTP over loopback TCP with NetMQ, an independent pure C# implementation, in each
/// pattern and with CURVE, once with Net.Zmq as the server (binding, answering, publishing, pulling) and once as
/// the client.
/// </summary>
public class NetMqInteropTests
{
    private const int Messages = 1000;
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(10);

    public static TheoryData<bool> NetZmqIsServer => [true, false];

    [Theory]
    [MemberData(nameof(NetZmqIsServer))]
    public void REQ_REP_round_trips_pair_every_reply_with_its_request(bool netZmqIsServer)
    {
        using var context = Sockets.NewContext();
        if (netZmqIsServer)
        {
            using var rep = Sockets.New(context, SocketType.Rep);
            using var req = NetMq(new RequestSocket());
            req.Connect(Endpoints.BindTcp(rep));
            for (int i = 0; i < Messages; i++)
            {
                req.SendFrame($"request {i}");
                Assert.Equal($"request {i}", rep.RecvString());
                Assert.True(rep.Send($"reply {i}"));
                Assert.Equal($"reply {i}", Receive(req));
            }
        }
        else
        {
            using var rep = NetMq(new ResponseSocket());
            using var req = Sockets.New(context, SocketType.Req);
            req.Connect(BindNetMq(rep));
            for (int i = 0; i < Messages; i++)
            {
                Assert.True(req.Send($"request {i}"));
                Assert.Equal($"request {i}", Receive(rep));
                rep.SendFrame($"reply {i}");
                Assert.Equal($"reply {i}", req.RecvString());
            }
        }
    }

    [Theory]
    [MemberData(nameof(NetZmqIsServer))]
    public void PUB_SUB_delivers_the_subscribed_topic_only_in_order(bool netZmqIsServer)
    {
        using var context = Sockets.NewContext();
        if (netZmqIsServer)
        {
            using var pub = Sockets.New(context, SocketType.Pub);
            using var sub = NetMq(new SubscriberSocket());
            sub.Connect(Endpoints.BindTcp(pub));
            sub.Subscribe("a");
            AwaitSubscription(() => pub.Send("a probe"), () => TryReceive(sub, TimeSpan.FromMilliseconds(20), out _));
            Drain(sub);
            // One at a time: a burst ending with no further traffic sometimes left its last frame undelivered by
            // NetMQ's SUB for over 10 s (docs/reliability.md).
            for (int i = 0; i < Messages; i++)
            {
                Assert.True(pub.Send($"b {i}"));
                Assert.True(pub.Send($"a {i}"));
                Assert.True(TryReceive(sub, s_wait, out string? frame), $"'a {i}' did not arrive");
                Assert.Equal($"a {i}", frame);
            }

            Assert.False(TryReceive(sub, TimeSpan.FromMilliseconds(100), out string? extra), $"unexpected '{extra}'");
        }
        else
        {
            using var pub = NetMq(new PublisherSocket());
            using var sub = Sockets.New(context, SocketType.Sub);
            sub.Connect(BindNetMq(pub));
            sub.Subscribe("a");
            AwaitSubscription(() => pub.SendFrame("a probe"), () => sub.TryRecvString(out _));
            while (sub.TryRecvString(out _))
            {
            }

            for (int i = 0; i < Messages; i++)
            {
                pub.SendFrame($"b {i}");
                pub.SendFrame($"a {i}");
                Assert.Equal($"a {i}", sub.RecvString());
            }

            sub.SetOption(SocketOption.ReceiveTimeout, 100);
            Assert.Throws<ZmqException>(() => sub.RecvString());
        }
    }

    [Theory]
    [MemberData(nameof(NetZmqIsServer))]
    public void PUSH_PULL_delivers_every_frame_in_order(bool netZmqIsServer)
    {
        using var context = Sockets.NewContext();
        if (netZmqIsServer)
        {
            using var pull = Sockets.New(context, SocketType.Pull);
            using var push = NetMq(new PushSocket());
            push.Connect(Endpoints.BindTcp(pull));
            for (int i = 0; i < Messages; i++)
            {
                push.SendFrame($"frame {i}");
            }

            for (int i = 0; i < Messages; i++)
            {
                Assert.Equal($"frame {i}", pull.RecvString());
            }
        }
        else
        {
            using var pull = NetMq(new PullSocket());
            using var push = Sockets.New(context, SocketType.Push);
            push.Connect(BindNetMq(pull));
            for (int i = 0; i < Messages; i++)
            {
                Assert.True(push.Send($"frame {i}"));
            }

            for (int i = 0; i < Messages; i++)
            {
                Assert.Equal($"frame {i}", Receive(pull));
            }
        }
    }

    [Theory]
    [MemberData(nameof(NetZmqIsServer))]
    public void DEALER_ROUTER_routes_multipart_replies_back_to_the_dealer(bool netZmqIsServer)
    {
        using var context = Sockets.NewContext();
        if (netZmqIsServer)
        {
            using var router = Sockets.New(context, SocketType.Router);
            using var dealer = NetMq(new DealerSocket());
            dealer.Options.Identity = "netmq-dealer"u8.ToArray();
            dealer.Connect(Endpoints.BindTcp(router));
            for (int i = 0; i < Messages; i++)
            {
                dealer.SendMoreFrame("header").SendFrame($"body {i}");
                using MultipartMessage request = router.RecvMultipart();
                Assert.Equal(["netmq-dealer", "header", $"body {i}"], request.Select(frame => frame.ToString()));
                Frames.SendStrings(router, "netmq-dealer", $"reply {i}");
                Assert.Equal($"reply {i}", Receive(dealer));
            }
        }
        else
        {
            using var router = NetMq(new RouterSocket());
            using var dealer = Sockets.New(context, SocketType.Dealer);
            dealer.SetOption(SocketOption.RoutingId, "net-zmq-dealer");
            dealer.Connect(BindNetMq(router));
            for (int i = 0; i < Messages; i++)
            {
                Frames.SendStrings(dealer, "header", $"body {i}");
                List<string> request = ReceiveMultipart(router);
                Assert.Equal(["net-zmq-dealer", "header", $"body {i}"], request);
                router.SendMoreFrame(request[0]).SendFrame($"reply {i}");
                Assert.Equal($"reply {i}", dealer.RecvString());
            }
        }
    }

    [Theory]
    [MemberData(nameof(NetZmqIsServer))]
    public void CURVE_handshakes_and_encrypted_traffic_work_with_keys_made_by_either_side(bool netZmqIsServer)
    {
        using var context = Sockets.NewContext();
        if (netZmqIsServer)
        {
            CurveKeyPair serverKeys = Curve.GenerateKeyPair();
            using var server = Sockets.New(context, SocketType.Rep);
            server.MakeCurveServer(serverKeys);
            using var client = NetMq(new RequestSocket());
            client.Options.CurveServerKey = serverKeys.PublicKeyBytes;
            client.Options.CurveCertificate = new NetMQCertificate();
            client.Connect(Endpoints.BindTcp(server));
            for (int i = 0; i < 100; i++)
            {
                client.SendFrame($"secret {i}");
                Assert.Equal($"secret {i}", server.RecvString());
                Assert.Equal((int)SecurityMechanism.Curve, server.GetOption<int>(SocketOption.Mechanism));
                Assert.True(server.Send($"sealed {i}"));
                Assert.Equal($"sealed {i}", Receive(client));
            }
        }
        else
        {
            var serverCertificate = new NetMQCertificate();
            using var server = NetMq(new ResponseSocket());
            server.Options.CurveServer = true;
            server.Options.CurveCertificate = serverCertificate;
            using var client = Sockets.New(context, SocketType.Req);
            client.MakeCurveClient(Curve.GenerateKeyPair(), Z85.Encode(serverCertificate.PublicKey));
            client.Connect(BindNetMq(server));
            for (int i = 0; i < 100; i++)
            {
                Assert.True(client.Send($"secret {i}"));
                Assert.Equal($"secret {i}", Receive(server));
                server.SendFrame($"sealed {i}");
                Assert.Equal($"sealed {i}", client.RecvString());
            }
        }
    }

    [Fact]
    public void A_NetMQ_CURVE_client_with_the_wrong_server_key_gets_no_message_through()
    {
        using var context = Sockets.NewContext();
        using var server = Sockets.New(context, SocketType.Pull);
        server.MakeCurveServer(Curve.GenerateKeyPair());
        const SocketEvents Refused = SocketEvents.HandshakeFailedProtocol | SocketEvents.HandshakeFailedNoDetail | SocketEvents.HandshakeFailedAuth;
        using var monitor = new SocketMonitor(server, Refused);
        using var client = NetMq(new PushSocket());
        client.Options.CurveServerKey = Curve.GenerateKeyPair().PublicKeyBytes;
        client.Options.CurveCertificate = new NetMQCertificate();
        client.Connect(Endpoints.BindTcp(server));
        client.SendFrame("should not arrive");

        monitor.WaitFor(Refused, s_wait);
        Assert.False(server.TryRecvString(out string? leaked), $"'{leaked}' got through");
    }

    private static T NetMq<T>(T socket)
        where T : NetMQSocket
    {
        socket.Options.Linger = TimeSpan.Zero;
        return socket;
    }

    private static string BindNetMq(NetMQSocket socket) => $"tcp://127.0.0.1:{socket.BindRandomPort("tcp://127.0.0.1")}";

    private static string Receive(NetMQSocket socket)
    {
        Assert.True(TryReceive(socket, s_wait, out string? frame), "NetMQ received nothing in time");
        return frame!;
    }

    private static bool TryReceive(NetMQSocket socket, TimeSpan timeout, out string? frame) => socket.TryReceiveFrameString(timeout, out frame);

    private static List<string> ReceiveMultipart(NetMQSocket socket)
    {
        List<string>? frames = null;
        Assert.True(socket.TryReceiveMultipartStrings(s_wait, ref frames), "NetMQ received nothing in time");
        return frames!;
    }

    private static void Drain(NetMQSocket socket)
    {
        while (TryReceive(socket, TimeSpan.Zero, out _))
        {
        }
    }

    /// <summary>Publishes probes until the subscriber sees one: the subscription has reached the publisher.</summary>
    private static void AwaitSubscription(Action publishProbe, Func<bool> probeArrived)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        do
        {
            Assert.True(clock.Elapsed < s_wait, "the subscription never reached the publisher");
            publishProbe();
            Thread.Sleep(10);
        }
        while (!probeArrived());
    }
}
