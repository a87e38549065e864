namespace Net.Zmq.Samples;

/// <summary>
/// PUB/SUB with topic prefixes. The publisher is an XPUB, so it sees each subscription arrive and starts publishing only
/// once every subscriber is listening: no message is lost to the slow-joiner problem, and nothing is guessed with a sleep.
/// </summary>
internal sealed class PubSubSample : ISample
{
    private const int MessagesPerTopic = 3;
    private const string EndTopic = "control.end";

    private static readonly string[] s_topics = ["weather.paris", "weather.london", "sports.football", "news.world", "traffic.a1"];

    public string Name => "pub-sub";

    public string Description => "XPUB publisher, three SUB subscribers filtering topics by prefix; no slow-joiner losses";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket publisher = Sample.CreateSocket(context, SocketType.XPub);
        // Verbose: pass every subscription up, also one another subscriber already made, so we can count them all.
        publisher.SetOption(SocketOption.XPubVerbose, true);
        publisher.Bind(Sample.AnyPort);
        string endpoint = publisher.LastEndpoint;
        log.Info($"XPUB publisher bound to {endpoint}");

        (string Name, string[] Prefixes)[] plans =
        [
            ("all-weather", ["weather."]),
            ("paris-only", ["weather.paris"]),
            ("sports+news", ["sports.", "news."]),
        ];

        var subscribers = new List<Socket>();
        try
        {
            int expectedSubscriptions = 0;
            foreach ((string _, string[] prefixes) in plans)
            {
                Socket subscriber = Sample.CreateSocket(context, SocketType.Sub);
                subscribers.Add(subscriber);
                subscriber.Connect(endpoint);
                foreach (string prefix in prefixes)
                {
                    subscriber.Subscribe(prefix);
                }

                subscriber.Subscribe(EndTopic); // so that each subscriber knows when the feed is over
                expectedSubscriptions += prefixes.Length + 1;
            }

            // Slow joiner: a PUB drops what it publishes before a subscription has reached it. The XPUB receives each
            // subscription as a frame (1 = subscribe, then the prefix), so wait until all of them are in.
            var seen = new List<string>();
            while (seen.Count < expectedSubscriptions)
            {
                byte[] subscription = publisher.RecvBytes();
                if (subscription.Length > 0 && subscription[0] == 1)
                {
                    seen.Add(System.Text.Encoding.UTF8.GetString(subscription.AsSpan(1)));
                }
            }

            log.Info($"XPUB saw {seen.Count} subscriptions arrive: {string.Join(", ", seen.Distinct().Select(s => $"'{s}'"))}");

            // Publish [topic][payload]; SUB filters on the first frame's prefix.
            int published = 0;
            for (int i = 1; i <= MessagesPerTopic; i++)
            {
                foreach (string topic in s_topics)
                {
                    publisher.Send(topic, SendFlags.SendMore);
                    publisher.Send($"{topic} update {i}");
                    published++;
                }
            }

            publisher.Send(EndTopic, SendFlags.SendMore);
            publisher.Send("");
            log.Info($"published {published} messages on {s_topics.Length} topics, then '{EndTopic}'");

            for (int s = 0; s < plans.Length; s++)
            {
                (string name, string[] prefixes) = plans[s];
                var received = new Dictionary<string, int>(StringComparer.Ordinal);
                int total = 0;
                using var message = new MultipartMessage();
                while (true)
                {
                    subscribers[s].RecvMultipart(message);
                    string topic = message[0].ToString();
                    if (topic == EndTopic)
                    {
                        break;
                    }

                    log.Check(message.Count == 2 && message[1].ToString().StartsWith(topic, StringComparison.Ordinal), $"{name}: payload of '{topic}'");
                    received[topic] = received.GetValueOrDefault(topic) + 1;
                    total++;
                }

                // Expected: every message whose topic starts with one of the subscriber's prefixes, and nothing else.
                var expected = s_topics.Where(topic => prefixes.Any(prefix => topic.StartsWith(prefix, StringComparison.Ordinal))).ToList();
                bool exact = received.Count == expected.Count && expected.All(topic => received.GetValueOrDefault(topic) == MessagesPerTopic);
                log.Check(exact, $"{name} should get {MessagesPerTopic} of each of {string.Join(", ", expected)}");
                log.Info($"{name,-11} ({string.Join(" ", prefixes)}): {total} messages: {string.Join(", ", received.Select(kv => $"{kv.Key} ×{kv.Value}"))}");
            }
        }
        finally
        {
            foreach (Socket subscriber in subscribers)
            {
                subscriber.Dispose();
            }
        }
    }
}
