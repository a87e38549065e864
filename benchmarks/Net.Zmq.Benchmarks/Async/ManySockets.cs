using System.Diagnostics;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// 10,000 sockets in async use in one process, 100 of them busy: 100 PUSH→PULL pairs over inproc (default HWM), each
/// with a <c>SendAsync</c> loop and a <c>RecvAsync</c> loop, plus 9,800 PULL sockets (in a second context) that each
/// have a <c>RecvAsync</c> parked that never completes. Windows of a fixed length alternate: the busy pairs alone, with the
/// idle sockets, alone, with a new set of idle sockets, alone; so each window with idle sockets can be compared with
/// the windows on either side of it, within one run. Then the busy pairs run once with the reactor's inline
/// continuations switch on, and once more without.
/// </summary>
internal sealed class ManySockets
{
    public const int TotalSockets = 10_000;
    public const int BusyPairs = 100;
    private const int Size = 64;

    /// <summary>Longs between two pairs' counters, so that no two receive loops write the same cache line.</summary>
    private const int Stride = 16;

    private readonly long[] _received = new long[BusyPairs * Stride];
    private volatile bool _stopping;

    public static ManySocketsResult Measure(TimeSpan window) => new ManySockets().Run(window);

    private ManySocketsResult Run(TimeSpan window)
    {
        int idle = TotalSockets - (2 * BusyPairs);
        long limit = OpenFilesLimit();
        // libzmq gives each socket one descriptor (its mailbox's eventfd); inproc connections add none.
        string? note = limit < TotalSockets + 500
            ? $"open-file limit {limit} (ulimit -n; .NET raises the soft limit to the hard one) is too low for {TotalSockets:N0} sockets: idle windows not run"
            : null;

        var context = new Context { DefaultLinger = TimeSpan.Zero };
        var pushes = new List<Socket>();
        var pulls = new List<Socket>();
        var loops = new List<Task>();
        for (int i = 0; i < BusyPairs; i++)
        {
            var pull = new Socket(context, SocketType.Pull);
            pull.Bind($"inproc://busy-{i}");
            var push = new Socket(context, SocketType.Push);
            push.Connect($"inproc://busy-{i}");
            pulls.Add(pull);
            pushes.Add(push);
            int index = i;
            loops.Add(Task.Run(() => ReceiveLoop(pull, index)));
            loops.Add(Task.Run(() => SendLoop(push)));
        }

        WaitForEveryPair();
        var windows = new List<SocketWindow> { Window($"{BusyPairs} busy pairs alone", 2 * BusyPairs, window) };
        var setups = new List<TimeSpan>();
        var closes = new List<TimeSpan>();
        int completed = 0;
        for (int round = 1; round <= 2 && note is null; round++)
        {
            long started = Stopwatch.GetTimestamp();
            // The idle sockets get a context of their own: libzmq closes sockets on its reaper thread after
            // zmq_close returns, and disposing this context waits for that, so the next window does not pay for it.
            var idleContext = new Context(ioThreads: 1, maxSockets: idle + 64) { DefaultLinger = TimeSpan.Zero };
            var parked = new ParkedSockets(idleContext, $"idle{round}", idle);
            setups.Add(Stopwatch.GetElapsedTime(started));
            windows.Add(Window($"{BusyPairs} busy pairs + {idle:N0} idle", TotalSockets, window));
            started = Stopwatch.GetTimestamp();
            completed += parked.Close();
            idleContext.Dispose();
            closes.Add(Stopwatch.GetElapsedTime(started));
            windows.Add(Window($"{BusyPairs} busy pairs alone", 2 * BusyPairs, window));
        }

        // The busy pairs once more with the reactor's inline continuations switch on, between two windows without it.
        using (new InlineContinuationsScope(true))
        {
            windows.Add(Window($"{BusyPairs} busy pairs alone, inline continuations", 2 * BusyPairs, window));
        }

        windows.Add(Window($"{BusyPairs} busy pairs alone", 2 * BusyPairs, window));

        long teardown = Stopwatch.GetTimestamp();
        _stopping = true;
        bool sendersEnded = Task.WaitAll([.. loops.Where((_, i) => i % 2 == 1)], TimeSpan.FromSeconds(10));
        foreach (Socket socket in pulls.Concat(pushes))
        {
            socket.Dispose();
        }

        bool allEnded = sendersEnded && Task.WaitAll([.. loops], TimeSpan.FromSeconds(10));
        context.Dispose();
        return new ManySocketsResult(BusyPairs, idle, limit, note, windows, setups, closes, completed, allEnded, Stopwatch.GetElapsedTime(teardown));
    }

    private async Task SendLoop(Socket push)
    {
        byte[] payload = new byte[Size];
        try
        {
            while (!_stopping)
            {
                await push.SendAsync(payload.AsMemory()).ConfigureAwait(false);
            }
        }
        catch (Exception e) when (Closed(e))
        {
            // Only if it was still waiting when the sockets were closed.
        }
    }

    private async Task ReceiveLoop(Socket pull, int index)
    {
        byte[] buffer = new byte[Size];
        try
        {
            while (true)
            {
                await pull.RecvAsync(buffer.AsMemory()).ConfigureAwait(false);
                _received[index * Stride]++;
            }
        }
        catch (Exception e) when (Closed(e))
        {
            // Closed at the end of the row.
        }
    }

    private static bool Closed(Exception e) => e is ObjectDisposedException or ContextTerminatedException;

    /// <summary>Returns once every pair has delivered a message (10 s at most).</summary>
    private void WaitForEveryPair()
    {
        var deadline = Stopwatch.StartNew();
        while (Enumerable.Range(0, BusyPairs).Any(i => Volatile.Read(ref _received[i * Stride]) == 0))
        {
            if (deadline.Elapsed > TimeSpan.FromSeconds(10))
            {
                throw new TimeoutException("A busy pair delivered nothing within 10 s.");
            }

            Thread.Sleep(10);
        }
    }

    private SocketWindow Window(string label, int sockets, TimeSpan duration)
    {
        long messages = Received();
        TimeSpan cpu = Environment.CpuUsage.TotalTime;
        TimeSpan? reactor = ReactorThread.Cpu();
        long started = Stopwatch.GetTimestamp();
        Thread.Sleep(duration);
        TimeSpan elapsed = Stopwatch.GetElapsedTime(started);
        return new SocketWindow(
            label, sockets, elapsed, Received() - messages, Environment.CpuUsage.TotalTime - cpu, ReactorThread.Cpu() - reactor, ThreadPool.ThreadCount);
    }

    private long Received()
    {
        long total = 0;
        for (int i = 0; i < BusyPairs; i++)
        {
            total += Volatile.Read(ref _received[i * Stride]);
        }

        return total;
    }

    /// <summary>The soft RLIMIT_NOFILE, from /proc/self/limits ("Max open files  soft  hard  files").</summary>
    private static long OpenFilesLimit()
    {
        string? line = File.Exists("/proc/self/limits")
            ? File.ReadLines("/proc/self/limits").FirstOrDefault(l => l.StartsWith("Max open files", StringComparison.Ordinal))
            : null;
        string[] fields = line?.Split(' ', StringSplitOptions.RemoveEmptyEntries) ?? [];
        return fields.Length > 3 && long.TryParse(fields[3], out long soft) ? soft : long.MaxValue;
    }
}
