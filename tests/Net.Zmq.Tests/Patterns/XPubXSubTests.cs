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
        using Socket publisher = Sockets.New(Context, SocketType.XPub);
        using Socket subscriber = Sockets.New(Context, SocketType.XSub);
        publisher.SetOption(SocketOption.XPubVerbose, true);
        subscriber.Connect(Endpoints.BindTcp(publisher));

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
        using Socket publisher = Sockets.New(Context, SocketType.XPub);
        using Socket first = Sockets.New(Context, SocketType.XSub);
        using Socket second = Sockets.New(Context, SocketType.XSub);
        string endpoint = Endpoints.BindTcp(publisher);
        first.Connect(endpoint);
        second.Connect(endpoint);

        Assert.True(first.Send(Subscription(1, "topic")));
        Assert.Equal(Subscription(1, "topic"), publisher.RecvBytes());

        Assert.True(second.Send(Subscription(1, "topic")));
        Assert.True(second.Send("marker"));
        Assert.Equal("marker", publisher.RecvString());
        Frames.AssertNothingWaiting(publisher);
    }
}
