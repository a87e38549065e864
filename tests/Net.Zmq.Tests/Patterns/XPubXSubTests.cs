using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class XPubXSubTests : ContextPerTest
{
    private static byte[] Subscription(byte kind, string topic) => [kind, .. System.Text.Encoding.UTF8.GetBytes(topic)];

    [Fact]
    public void Xpub_receives_the_subscription_frame_an_xsub_sends_and_then_publishes_to_it()
    {
        using var pair = SocketPair.Open(SocketType.XPub, SocketType.XSub);
        var (publisher, subscriber) = pair;

        Assert.True(subscriber.Send(Subscription(1, "prices.")));

        // Once the XPUB has read the subscription it also filters by it, so publishing right away is safe.
        Assert.Equal(Subscription(1, "prices."), publisher.RecvBytes());
        Assert.True(publisher.Send("volumes.ignored"));
        Assert.True(publisher.Send("prices.eur 1.08"));

        Assert.Equal("prices.eur 1.08", subscriber.RecvString());
    }

    [Fact]
    public void Xpub_verbose_passes_every_subscription_and_the_final_unsubscription()
    {
        using var pair = SocketPair.Open(SocketType.XPub, SocketType.XSub, configure: (xpub, _) => xpub.SetOption(SocketOption.XPubVerbose, true));
        var (publisher, subscriber) = pair;

        Assert.True(subscriber.Send(Subscription(1, "topic")));
        Assert.True(subscriber.Send(Subscription(1, "topic")));
        Assert.Equal(Subscription(1, "topic"), publisher.RecvBytes());
        Assert.Equal(Subscription(1, "topic"), publisher.RecvBytes()); // the duplicate: only because of XPubVerbose

        // The XSUB counts its subscriptions: only the second unsubscription leaves it.
        Assert.True(subscriber.Send(Subscription(0, "topic")));
        Assert.True(subscriber.Send(Subscription(0, "topic")));
        Assert.Equal(Subscription(0, "topic"), publisher.RecvBytes());

        // A new subscription travels behind the unsubscription: nothing else came in between.
        Assert.True(subscriber.Send(Subscription(1, "marker")));
        Assert.Equal(Subscription(1, "marker"), publisher.RecvBytes());
        Frames.AssertNothingWaiting(publisher);

        // The XPUB has applied both, so "topic" is filtered out while "marker" still flows.
        Assert.True(publisher.Send("topic.after unsubscribe"));
        Assert.True(publisher.Send("marker.end"));
        Assert.Equal("marker.end", subscriber.RecvString());
        Frames.AssertNothingWaiting(subscriber);
    }

    [Fact]
    public void Xpub_without_verbose_passes_a_duplicate_subscription_only_once()
    {
        using var group = new SocketGroup(Context);
        Socket publisher = group.New(SocketType.XPub);
        Socket[] subscribers = group.ConnectedTo(Endpoints.BindTcp(publisher), SocketType.XSub, 2);

        Assert.True(subscribers[0].Send(Subscription(1, "topic")));
        Assert.Equal(Subscription(1, "topic"), publisher.RecvBytes());

        Assert.True(subscribers[1].Send(Subscription(1, "topic")));
        Assert.True(subscribers[1].Send("marker"));
        Assert.Equal("marker", publisher.RecvString());
        Frames.AssertNothingWaiting(publisher);
    }
}
