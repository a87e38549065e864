namespace Net.Zmq.Samples;

/// <summary>
/// PAIR over inproc: two threads of one process signal each other. The worker reports each stage it finishes and waits
/// for the main thread's go-ahead before starting the next one.
/// </summary>
internal sealed class PairSample : ISample
{
    private const int Stages = 3;

    public string Name => "pair";

    public string Description => "two threads signalling each other over an inproc PAIR connection";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        string endpoint = Sample.UniqueInproc("pair");

        // inproc: both ends must share the context; bind before the other thread connects.
        using Socket main = Sample.CreateSocket(context, SocketType.Pair);
        main.Bind(endpoint);
        log.Info($"main thread bound a PAIR socket to {endpoint}");

        var worker = SampleThread.Start("pair-worker", () =>
        {
            using Socket signal = Sample.CreateSocket(context, SocketType.Pair);
            signal.Connect(endpoint);
            long total = 0;
            for (int stage = 1; stage <= Stages; stage++)
            {
                for (int i = 1; i <= stage * 1000; i++)
                {
                    total += i;
                }

                signal.Send($"stage {stage} done, total {total}");
                if (stage < Stages && signal.RecvString() != "go on")
                {
                    throw new InvalidOperationException("the main thread did not say 'go on'");
                }
            }

            signal.Send("finished");
        });

        int stagesSeen = 0;
        while (true)
        {
            string signal = main.RecvString();
            if (signal == "finished")
            {
                break;
            }

            stagesSeen++;
            log.Check(signal.StartsWith($"stage {stagesSeen} done", StringComparison.Ordinal), $"signal '{signal}' should be stage {stagesSeen}");
            log.Info($"worker -> main: '{signal}'");
            if (stagesSeen < Stages)
            {
                main.Send("go on");
                log.Info("main -> worker: 'go on'");
            }
        }

        worker.Join(Sample.Timeout);
        log.Check(stagesSeen == Stages, $"{stagesSeen} of {Stages} stages signalled");
        log.Info($"worker signalled all {stagesSeen} stages in order, then 'finished'");
    }
}
