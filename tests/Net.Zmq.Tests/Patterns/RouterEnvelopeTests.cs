using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

/// <summary>What a ROUTER sees of a DEALER's or a REQ's message (routing id, delimiter, payload) and how its reply finds its way back.</summary>
public class RouterEnvelopeTests : ContextPerTest
{
    [Fact]
    public void Router_sees_routing_id_and_payload_and_dealer_gets_payload_only()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Dealer, configure: (_, dealer) => dealer.SetOption(SocketOption.RoutingId, "dealer-1"));
        var (router, dealer) = pair;

        Assert.True(dealer.Send("hello"));

        using (MultipartMessage request = router.RecvMultipart())
        {
            Assert.Equal(2, request.Count);
            Assert.Equal("dealer-1", request[0].ToString());
            Assert.True(request[0].More);
            Assert.Equal("hello", request[1].ToString());
            Assert.False(request[1].More);
            Assert.Equal("DEALER", request[1].GetMetadata("Socket-Type"));
            Assert.Equal("127.0.0.1", request[1].GetMetadata("Peer-Address"));
        }

        Frames.SendStrings(router, "dealer-1", "world");

        using MultipartMessage reply = dealer.RecvMultipart();
        Assert.Single(reply);
        Assert.Equal("world", reply[0].ToString());
        Assert.False(reply[0].More);
    }

    [Fact]
    public void Router_replies_reach_the_dealer_named_by_the_routing_id()
    {
        using Socket router = Sockets.New(Context, SocketType.Router);
        using Socket alice = Sockets.New(Context, SocketType.Dealer);
        using Socket bob = Sockets.New(Context, SocketType.Dealer);
        string endpoint = Endpoints.BindTcp(router);
        alice.SetOption(SocketOption.RoutingId, "alice");
        bob.SetOption(SocketOption.RoutingId, "bob");
        alice.Connect(endpoint);
        bob.Connect(endpoint);

        Assert.True(alice.Send("from alice"));
        Assert.True(bob.Send("from bob"));

        var seen = new Dictionary<string, string>();
        for (int i = 0; i < 2; i++)
        {
            string[] frames = Frames.RecvStrings(router);
            Assert.Equal(2, frames.Length);
            seen[frames[0]] = frames[1];
        }

        Assert.Equal("from alice", seen["alice"]);
        Assert.Equal("from bob", seen["bob"]);

        // Reply in the opposite order of arrival: the routing id alone decides the destination.
        Frames.SendStrings(router, "bob", "for bob");
        Frames.SendStrings(router, "alice", "for alice");

        Assert.Equal(["for alice"], Frames.RecvStrings(alice));
        Assert.Equal(["for bob"], Frames.RecvStrings(bob));
    }

    [Fact]
    public void Router_assigns_a_routing_id_when_the_dealer_sets_none_and_accepts_it_back()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Dealer);
        var (router, dealer) = pair;

        Assert.True(dealer.Send("job", SendFlags.SendMore));
        Assert.True(dealer.Send("payload"));

        using MultipartMessage request = router.RecvMultipart();
        Assert.Equal(3, request.Count);
        byte[] generatedId = request[0].ToArray();
        Assert.NotEmpty(generatedId);
        Assert.Equal(0, generatedId[0]); // libzmq's generated ids start with a zero byte
        Assert.Equal("job", request[1].ToString());
        Assert.Equal("payload", request[2].ToString());

        Assert.True(router.Send(generatedId, SendFlags.SendMore));
        Assert.True(router.Send("done", SendFlags.SendMore));
        Assert.True(router.Send("result"));

        Assert.Equal(["done", "result"], Frames.RecvStrings(dealer));
    }

    [Fact]
    public void Router_receives_routing_id_empty_delimiter_and_payload_from_req()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Req, configure: (_, req) => req.SetOption(SocketOption.RoutingId, "client-7"));
        var (router, client) = pair;

        Assert.True(client.Send("request"));

        using MultipartMessage envelope = router.RecvMultipart();
        Assert.Equal(3, envelope.Count);
        Assert.Equal("client-7", envelope[0].ToString());
        Assert.Equal(0, envelope[1].Size);
        Assert.True(envelope[1].More);
        Assert.Equal("request", envelope[2].ToString());
        Assert.False(envelope[2].More);

        // Replying with the same envelope delivers just the payload to the REQ.
        using var reply = new MultipartMessage();
        reply.Add("client-7");
        reply.AddEmpty();
        reply.Add("reply");
        Assert.True(router.SendMultipart(reply));

        using MultipartMessage answer = client.RecvMultipart();
        Assert.Single(answer);
        Assert.Equal("reply", answer[0].ToString());
    }
}
