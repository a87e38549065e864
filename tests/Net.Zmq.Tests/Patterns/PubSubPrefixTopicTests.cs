using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class PubSubPrefixTopicTests
{
    private const string Probe = "probe";

    [Fact]
    public void Subscriber_gets_only_messages_whose_prefix_it_subscribed_to()
    {
        using var pair = OpenSubscribed("weather.", "news.");
        var (publisher, subscriber) = pair;

        string[] published =
        [
            "weather.london rain",
            "sports.football 2-1",
            "news.world calm",
            "weathe truncated prefix",
            "Weather.case matters",
            "news.end",
        ];
        foreach (string message in published)
        {
            Assert.True(publisher.Send(message));
        }

        var received = new List<string>();
        do
        {
            received.Add(subscriber.RecvString());
        }
        while (received[^1] != "news.end");

        Assert.Equal(["weather.london rain", "news.world calm", "news.end"], received);
    }

    [Fact]
    public void Subscriber_matches_binary_prefixes_byte_for_byte()
    {
        using var pair = OpenSubscribed(subscriber => subscriber.Subscribe([0x00, 0xFF]));
        var (publisher, subscriber) = pair;

        Assert.True(publisher.Send([0x00, 0xFE, 1]));
        Assert.True(publisher.Send([0x00, 0xFF, 2]));
        Assert.True(publisher.Send([0x01, 0xFF, 3]));
        Assert.True(publisher.Send([0x00, 0xFF, 4]));

        Assert.Equal(new byte[] { 0x00, 0xFF, 2 }, subscriber.RecvBytes());
        Assert.Equal(new byte[] { 0x00, 0xFF, 4 }, subscriber.RecvBytes());
    }

    [Fact]
    public void Unsubscribe_stops_delivery_of_that_prefix_only()
    {
        using var pair = OpenSubscribed("weather.", "news.");
        var (publisher, subscriber) = pair;

        Assert.True(publisher.Send("news.before"));
        Assert.Equal("news.before", subscriber.RecvString());

        subscriber.Unsubscribe("news.");
        Assert.True(publisher.Send("news.after"));
        Assert.True(publisher.Send("weather.after"));
        Assert.True(publisher.Send("news.again"));
        Assert.True(publisher.Send("weather.end"));

        Assert.Equal("weather.after", subscriber.RecvString());
        Assert.Equal("weather.end", subscriber.RecvString());
        Frames.AssertNothingWaiting(subscriber);
    }

    [Fact]
    public void Subscriber_with_an_empty_prefix_gets_every_message()
    {
        using var pair = OpenSubscribed("");
        var (publisher, subscriber) = pair;

        Assert.True(publisher.Send("alpha"));
        Assert.True(publisher.Send(""));
        Assert.True(publisher.Send("omega"));

        Assert.Equal("alpha", subscriber.RecvString());
        Assert.Equal("", subscriber.RecvString());
        Assert.Equal("omega", subscriber.RecvString());
    }

    /// <summary>A PUB and a SUB subscribed to each of <paramref name="prefixes"/> (and the probe topic), the subscriptions known to the publisher.</summary>
    private static SocketPair OpenSubscribed(params string[] prefixes) => OpenSubscribed(subscriber =>
    {
        foreach (string prefix in prefixes)
        {
            subscriber.Subscribe(prefix);
        }
    });

    /// <summary>
    /// A PUB and a SUB that <paramref name="subscribe"/> subscribed, and to the probe topic as well, with every
    /// subscription known to the publisher (<see cref="Connections.AwaitSubscription"/>: they travel in order).
    /// </summary>
    private static SocketPair OpenSubscribed(Action<Socket> subscribe)
    {
        var pair = SocketPair.Open(SocketType.Pub, SocketType.Sub);
        subscribe(pair.Connector);
        pair.Connector.Subscribe(Probe);
        Connections.AwaitSubscription(pair.Binder, pair.Connector, Probe);
        return pair;
    }
}
