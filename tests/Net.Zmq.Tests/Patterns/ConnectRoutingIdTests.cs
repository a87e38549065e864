using Net.Zmq.Tests.Draft;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

/// <summary>
/// libzmq aborts the process when a ROUTER's or STREAM's connect gives a routing id that a pipe of the socket has
/// already: Connect refuses it first. In a child process, so that an abort fails the test rather than ending the run.
/// </summary>
public sealed class ConnectRoutingIdTests
{
    [Fact]
    public void A_connect_routing_id_an_earlier_connect_gave_is_refused_rather_than_aborting_the_process()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(ConnectTwiceWithOneId, TimeSpan.FromSeconds(60));
        outcome.AssertSucceeded();
        Assert.Contains("second connects refused", outcome.Output);
    }

    /// <summary>Only a libzmq with the draft API says whether a peer that connected in has an id.</summary>
    [DraftFact]
    public void A_connect_routing_id_a_peer_that_connected_in_has_is_refused_rather_than_aborting_the_process()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(ConnectWithAPeersId, TimeSpan.FromSeconds(60));
        outcome.AssertSucceeded();
        Assert.Contains("the peer's id refused", outcome.Output);
    }

    private static void ConnectTwiceWithOneId()
    {
        using var context = new Context();
        using var router = new Socket(context, SocketType.Router);
        using var stream = new Socket(context, SocketType.Stream);
        using var a = new Socket(context, SocketType.Router);
        using var b = new Socket(context, SocketType.Router);
        string first = Endpoints.BindTcp(a);
        string second = Endpoints.BindTcp(b);

        router.SetOption(SocketOption.ConnectRoutingId, "A"u8.ToArray());
        router.Connect(first);
        router.SetOption(SocketOption.ConnectRoutingId, "A"u8.ToArray());
        ExpectRefused(() => router.Connect(second));

        // Refused, the socket still works: another id connects.
        router.SetOption(SocketOption.ConnectRoutingId, "B"u8.ToArray());
        router.Connect(second);

        // Stream asserts alike.
        stream.SetOption(SocketOption.ConnectRoutingId, "S"u8.ToArray());
        stream.Connect(first);
        stream.SetOption(SocketOption.ConnectRoutingId, "S"u8.ToArray());
        ExpectRefused(() => stream.Connect(second));
        Console.WriteLine("second connects refused");
    }

    private static void ConnectWithAPeersId()
    {
        using var context = new Context();
        using var router = new Socket(context, SocketType.Router);
        using var other = new Socket(context, SocketType.Router);
        string otherEndpoint = Endpoints.BindTcp(other);

        using Socket peer = PeerConnectedIn(context, router, "P");
        router.SetOption(SocketOption.ConnectRoutingId, "P"u8.ToArray());
        ExpectRefused(() => router.Connect(otherEndpoint));

        // With Immediate, a tcp connect leaves the id pending in libzmq, and the next connect without it gives it.
        using var immediate = new Socket(context, SocketType.Router);
        immediate.SetOption(SocketOption.Immediate, true);
        immediate.SetOption(SocketOption.ConnectRoutingId, "X"u8.ToArray());
        immediate.Connect(otherEndpoint);
        using Socket peerX = PeerConnectedIn(context, immediate, "X");
        immediate.SetOption(SocketOption.Immediate, false);
        ExpectRefused(() => immediate.Connect(otherEndpoint));
        Console.WriteLine("the peer's id refused");
    }

    /// <summary>A Dealer with routing id <paramref name="id"/> connected in to <paramref name="router"/>, once the router took its message (libzmq then knows the id).</summary>
    private static Socket PeerConnectedIn(Context context, Socket router, string id)
    {
        var peer = new Socket(context, SocketType.Dealer);
        peer.SetOption(SocketOption.RoutingId, id);
        peer.Connect(Endpoints.BindTcp(router));
        peer.Send("hello");
        router.SetOption(SocketOption.ReceiveTimeout, Timeouts.WaitMs);
        if (router.RecvString() != id || router.RecvString() != "hello")
        {
            throw new InvalidOperationException($"peer {id}'s message did not arrive as sent");
        }

        return peer;
    }

    private static void ExpectRefused(Action connect)
    {
        var refused = Assert.Throws<InvalidOperationException>(connect);
        Assert.Contains("(ConnectRoutingId) is already a peer's", refused.Message);
    }
}
