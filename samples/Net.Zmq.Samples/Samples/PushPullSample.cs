using System.Collections.Concurrent;
using System.Globalization;
using Net.Zmq.Monitoring;

namespace Net.Zmq.Samples;

/// <summary>
/// A pipeline: a ventilator PUSHes tasks, three workers PULL them and PUSH results, a sink PULLs every result.
/// </summary>
internal sealed class PushPullSample : ISample
{
    private const int Workers = 3;
    private const int Tasks = 30;

    public string Name => "push-pull";

    public string Description => "ventilator -> 3 workers -> sink: tasks load-balanced by PUSH, every result collected";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket ventilator = Sample.CreateSocket(context, SocketType.Push);
        using Socket sink = Sample.CreateSocket(context, SocketType.Pull);
        using var ventilatorEvents = new SocketMonitor(ventilator, SocketEvents.HandshakeSucceeded);
        ventilator.Bind(Sample.AnyPort);
        sink.Bind(Sample.AnyPort);
        string tasksEndpoint = ventilator.LastEndpoint;
        string resultsEndpoint = sink.LastEndpoint;
        log.Info($"ventilator on {tasksEndpoint}, sink on {resultsEndpoint}");

        var done = new ConcurrentDictionary<string, int>(StringComparer.Ordinal);
        var workers = new List<SampleThread>();
        try
        {
            for (int w = 1; w <= Workers; w++)
            {
                string workerName = $"worker-{w}";
                workers.Add(SampleThread.Start(workerName, () => Work(context, workerName, tasksEndpoint, resultsEndpoint, done)));
            }

            // PUSH hands each task to one connected worker, round-robin. Tasks sent while only the first worker is
            // connected would all go to it, so wait until the three connections have completed their handshake.
            for (int w = 0; w < Workers; w++)
            {
                ventilatorEvents.WaitFor(SocketEvents.HandshakeSucceeded, Sample.Timeout);
            }

            log.Info($"{Workers} workers connected; sending {Tasks} tasks");
            for (int task = 1; task <= Tasks; task++)
            {
                ventilator.Send(task.ToString(CultureInfo.InvariantCulture));
            }

            // The sink: each result is "<task> <task squared> <worker>".
            var results = new Dictionary<int, long>();
            for (int i = 0; i < Tasks; i++)
            {
                string[] parts = sink.RecvString().Split(' ');
                int task = int.Parse(parts[0], CultureInfo.InvariantCulture);
                log.Check(results.TryAdd(task, long.Parse(parts[1], CultureInfo.InvariantCulture)), $"task {task} reported twice");
            }

            bool all = Enumerable.Range(1, Tasks).All(task => results.TryGetValue(task, out long square) && square == (long)task * task);
            log.Check(all, $"every one of the {Tasks} tasks has its correct result");
            log.Info($"sink collected {results.Count} of {Tasks} results, all correct: {all}");
        }
        finally
        {
            // Workers block in a receive; shutting the context down makes it throw ContextTerminatedException.
            context.Shutdown();
            SampleThread.JoinAll(workers, Sample.Timeout);
        }

        log.Info($"tasks per worker: {string.Join(", ", done.OrderBy(kv => kv.Key, StringComparer.Ordinal).Select(kv => $"{kv.Key}={kv.Value}"))}");
        log.Check(done.Values.Sum() == Tasks, $"workers did {done.Values.Sum()} tasks in all");
    }

    private static void Work(Context context, string name, string tasksEndpoint, string resultsEndpoint, ConcurrentDictionary<string, int> done)
    {
        try
        {
            using var tasks = new Socket(context, SocketType.Pull);
            using var results = new Socket(context, SocketType.Push);
            tasks.Connect(tasksEndpoint);
            results.Connect(resultsEndpoint);
            while (true)
            {
                long task = long.Parse(tasks.RecvString(), CultureInfo.InvariantCulture);
                results.Send(string.Create(CultureInfo.InvariantCulture, $"{task} {task * task} {name}"));
                done.AddOrUpdate(name, 1, (_, count) => count + 1);
            }
        }
        catch (ContextTerminatedException)
        {
            // The sample is over.
        }
    }
}
