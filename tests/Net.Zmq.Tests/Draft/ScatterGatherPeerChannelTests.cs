using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

public class ScatterGatherPeerChannelTests : ContextPerTest
{
    [DraftFact]
    public void Gather_fair_queues_what_two_scatters_send()
    {
        using var group = new SocketGroup(Context);
        Socket gather = group.New(SocketType.Gather);
        Socket[] scatters = group.ConnectedTo(Endpoints.BindTcp(gather), SocketType.Scatter, 2);
        var (left, right) = (scatters[0], scatters[1]);

        for (int i = 0; i < 5; i++)
        {
            Assert.True(left.Send($"left {i}"));
            Assert.True(right.Send($"right {i}"));
        }

        var received = new List<string>();
        for (int i = 0; i < 10; i++)
        {
            received.Add(gather.RecvString());
        }

        Assert.Equal(Enumerable.Range(0, 5).Select(i => $"left {i}"), received.Where(text => text.StartsWith("left", StringComparison.Ordinal)));
        Assert.Equal(Enumerable.Range(0, 5).Select(i => $"right {i}"), received.Where(text => text.StartsWith("right", StringComparison.Ordinal)));
    }

    /// <summary>ConnectPeer makes an endpoint as Connect does: security options set after it are refused.</summary>
    [DraftFact]
    public void Security_options_after_ConnectPeer_are_refused()
    {
        using Socket alice = Sockets.New(Context, SocketType.Peer);
        using Socket bob = Sockets.New(Context, SocketType.Peer);

        alice.ConnectPeer(Endpoints.BindTcp(bob));

        var late = Assert.Throws<InvalidOperationException>(() => alice.MakePlainClient("user", "password"));
        Assert.Contains("set after this Peer socket was bound or connected", late.Message);
    }

    [DraftFact]
    public void Peers_connect_to_each_other_with_ConnectPeer_and_answer_by_routing_id()
    {
        using Socket alice = Sockets.New(Context, SocketType.Peer);
        using Socket bob = Sockets.New(Context, SocketType.Peer);
        string aliceEndpoint = Endpoints.BindTcp(alice);
        string bobEndpoint = Endpoints.BindTcp(bob);

        uint aliceToBob = alice.ConnectPeer(bobEndpoint);
        uint bobToAlice = bob.ConnectPeer(aliceEndpoint);
        Assert.NotEqual(0u, aliceToBob);
        Assert.NotEqual(0u, bobToAlice);

        DraftSupport.Send(alice, "hello bob", aliceToBob);
        using (Message atBob = DraftSupport.Receive(bob))
        {
            Assert.Equal("hello bob", atBob.ToString());
            Assert.NotEqual(0u, atBob.RoutingId);
            DraftSupport.Send(bob, "hello back", atBob.RoutingId); // over the connection alice made
        }

        using (Message atAlice = DraftSupport.Receive(alice))
        {
            Assert.Equal("hello back", atAlice.ToString());
            Assert.Equal(aliceToBob, atAlice.RoutingId);
        }

        DraftSupport.Send(bob, "over my own connection", bobToAlice);
        using (Message atAlice = DraftSupport.Receive(alice))
        {
            Assert.Equal("over my own connection", atAlice.ToString());
            Assert.NotEqual(aliceToBob, atAlice.RoutingId);
        }
    }

    [DraftFact]
    public void ConnectPeer_is_refused_on_other_types_and_with_Immediate()
    {
        using Socket client = Sockets.New(Context, SocketType.Client);
        using Socket peer = Sockets.New(Context, SocketType.Peer);
        peer.SetOption(SocketOption.Immediate, true);

        Assert.Throws<NotSupportedException>(() => client.ConnectPeer("tcp://127.0.0.1:1"));
        var immediate = Assert.Throws<InvalidOperationException>(() => peer.ConnectPeer("tcp://127.0.0.1:1"));
        Assert.Contains("Immediate", immediate.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => peer.ConnectPeer(""));
    }

    [DraftFact]
    public void Channel_pair_talks_both_ways_over_inproc()
    {
        using var pair = SocketPair.Open(SocketType.Channel, SocketType.Channel, inproc: true);
        var (left, right) = pair;

        Assert.True(left.Send("ping"));
        Assert.Equal("ping", right.RecvString());
        Assert.True(right.Send("pong"));
        Assert.Equal("pong", left.RecvString());
    }
}
