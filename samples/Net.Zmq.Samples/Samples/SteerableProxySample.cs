namespace Net.Zmq.Samples;

/// <summary>
/// A PULL/PUSH streamer under remote control: <see cref="ProxyController"/> pauses it (messages wait in the queue),
/// resumes it (they flow), reads its statistics and terminates it.
/// </summary>
internal sealed class SteerableProxySample : ISample
{
    public string Name => "steerable-proxy";

    public string Description => "PULL/PUSH streamer paused, resumed, measured and terminated over a PAIR control socket";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket frontend = Sample.CreateSocket(context, SocketType.Pull);
        using Socket backend = Sample.CreateSocket(context, SocketType.Push);
        using Socket control = Sample.CreateSocket(context, SocketType.Pair);
        frontend.Bind(Sample.UniqueInproc("streamer-in"));
        backend.Bind(Sample.UniqueInproc("streamer-out"));
        control.Bind(Sample.UniqueInproc("streamer-control"));

        using Socket producer = Sample.CreateSocket(context, SocketType.Push);
        using Socket consumer = Sample.CreateSocket(context, SocketType.Pull);
        using Socket steering = Sample.CreateSocket(context, SocketType.Pair);
        producer.Connect(frontend.LastEndpoint);
        consumer.Connect(backend.LastEndpoint);
        steering.Connect(control.LastEndpoint);
        var controller = new ProxyController(steering);

        var proxy = SampleThread.Start("steerable-proxy", () => Proxy.StartSteerable(frontend, backend, null, control));

        producer.Send("job 1");
        log.Check(consumer.RecvString() == "job 1", "job 1 flows while running");

        controller.Pause();
        controller.GetStatistics(); // commands are handled in order: once this is answered, the proxy is paused
        producer.Send("job 2");
        using (var poller = new Poller(1))
        {
            poller.Add(consumer, PollEvents.In);
            bool held = poller.Poll(100) == 0;
            log.Check(held, "job 2 is held while paused");
            log.Info($"paused: job 2 {(held ? "waits in the queue" : "got through")}");
        }

        controller.Resume();
        log.Check(consumer.RecvString() == "job 2", "job 2 flows after resume");

        ProxyStatistics statistics = controller.GetStatistics();
        log.Check(statistics.FrontendMessagesReceived == 2 && statistics.BackendMessagesSent == 2,
            $"statistics count 2 messages in and out (got {statistics.FrontendMessagesReceived} in, {statistics.BackendMessagesSent} out)");
        log.Info($"statistics: {statistics.FrontendMessagesReceived} messages / {statistics.FrontendBytesReceived} bytes in, " +
            $"{statistics.BackendMessagesSent} messages / {statistics.BackendBytesSent} bytes out");

        controller.Terminate();
        proxy.Join(Sample.Timeout);
        log.Info("TERMINATE: StartSteerable returned quietly");
    }
}
