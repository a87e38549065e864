namespace Net.Zmq.Samples;

/// <summary>
/// An XSUB/XPUB forwarder: publishers connect to the proxy's XSUB side, subscribers to its XPUB side, and
/// <see cref="Proxy.Start"/> shuttles messages one way and subscriptions the other until the context shuts down.
/// </summary>
internal sealed class ProxySample : ISample
{
    public string Name => "proxy";

    public string Description => "XSUB/XPUB forwarder between publishers and subscribers, stopped by a context shutdown";

    public void Run(SampleLog log)
    {
        var context = new Context();
        using Socket frontend = Sample.CreateSocket(context, SocketType.XSub);
        using Socket backend = Sample.CreateSocket(context, SocketType.XPub);
        frontend.Bind(Sample.AnyPort);
        backend.Bind(Sample.AnyPort);
        backend.SetOption(SocketOption.XPubVerbose, true);
        // Read before the proxy starts: from then on the two sockets belong to the proxy's thread, and a call from this
        // one (even LastEndpoint) is refused.
        string publishers = frontend.LastEndpoint;
        string subscribers = backend.LastEndpoint;
        log.Info($"proxy: publishers -> {publishers} (XSUB), subscribers -> {subscribers} (XPUB)");

        // The proxy runs until the context is shut down; that normal stop returns quietly.
        var proxy = SampleThread.Start("proxy", () => Proxy.Start(frontend, backend));

        using (Socket publisher = Sample.CreateSocket(context, SocketType.Pub))
        using (Socket subscriber = Sample.CreateSocket(context, SocketType.Sub))
        {
            publisher.Connect(publishers);
            subscriber.Connect(subscribers);
            subscriber.Subscribe("prices.");

            // The subscription travels subscriber -> XPUB -> proxy -> XSUB -> publisher. Until it has arrived the
            // publisher drops messages (the slow joiner), so publish a probe until the subscriber sees one.
            using var poller = new Poller(1);
            poller.Add(subscriber, PollEvents.In);
            int probes = 0;
            do
            {
                publisher.Send($"prices.probe {++probes}");
            }
            while (poller.Poll(10) == 0 && probes < 500);

            while (subscriber.TryRecvString(out _))
            {
            }

            log.Info($"subscription reached the publisher after {probes} probe(s)");

            string[] sent = ["prices.EUR 1.08", "news.ignored", "prices.GBP 1.27", "prices.JPY 0.0067"];
            foreach (string text in sent)
            {
                publisher.Send(text);
            }

            // Probes still in flight arrive first, in order; skip them.
            var received = new List<string>();
            while (received.Count < 3)
            {
                string text = subscriber.RecvString();
                if (!text.StartsWith("prices.probe", StringComparison.Ordinal))
                {
                    received.Add(text);
                }
            }

            log.Check(received.SequenceEqual(sent.Where(s => s.StartsWith("prices.", StringComparison.Ordinal))),
                $"the subscriber got the 3 prices in order: {string.Join(", ", received)}");
            log.Info($"subscriber got through the proxy: {string.Join(" | ", received)}");
        }

        context.Shutdown();
        proxy.Join(Sample.Timeout);
        log.Info("context shut down: Proxy.Start returned quietly");
        frontend.Dispose();
        backend.Dispose();
        context.Dispose();
    }
}
