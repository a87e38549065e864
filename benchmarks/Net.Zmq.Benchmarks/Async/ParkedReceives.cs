using System.Diagnostics;

namespace Net.Zmq.Benchmarks;

/// <summary>The CPU that parked receives cost: none should be spent while nothing arrives.</summary>
/// <param name="ProcessCpu">CPU time of the whole process over <paramref name="Duration"/>.</param>
/// <param name="ReactorCpu">CPU time of Net.Zmq's reactor thread over the same time, read from /proc.</param>
internal sealed record ParkedReceivesResult(int Receives, TimeSpan Duration, TimeSpan ProcessCpu, TimeSpan? ReactorCpu, int ThreadPoolThreads, int CompletedOnDispose)
{
    /// <summary>Parks <paramref name="receives"/> RecvAsync calls on PULL sockets that get nothing, and measures the CPU used over <paramref name="duration"/>.</summary>
    public static ParkedReceivesResult Measure(int receives, TimeSpan duration)
    {
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        var sockets = new List<Socket>(receives);
        var pending = new List<Task<int>>(receives);
        byte[] buffer = new byte[64];
        for (int i = 0; i < receives; i++)
        {
            var socket = new Socket(context, SocketType.Pull);
            socket.Bind($"inproc://parked-{i}");
            sockets.Add(socket);
            pending.Add(socket.RecvAsync(buffer.AsMemory()).AsTask());
        }

        using Process process = Process.GetCurrentProcess();
        TimeSpan processBefore = process.TotalProcessorTime;
        TimeSpan? reactorBefore = ReactorThreadCpu();
        Thread.Sleep(duration);
        process.Refresh();
        TimeSpan processCpu = process.TotalProcessorTime - processBefore;
        TimeSpan? reactorCpu = ReactorThreadCpu() - reactorBefore;
        int threads = ThreadPool.ThreadCount;

        foreach (Socket socket in sockets)
        {
            socket.Dispose();
        }

        int completed = pending.Count(t => WaitForDisposed(t));
        return new ParkedReceivesResult(receives, duration, processCpu, reactorCpu, threads, completed);
    }

    private static bool WaitForDisposed(Task task)
    {
        try
        {
            task.Wait(TimeSpan.FromSeconds(5));
            return false;
        }
        catch (AggregateException ex) when (ex.InnerException is ObjectDisposedException)
        {
            return true;
        }
    }

    /// <summary>utime + stime of the thread named "Net.Zmq reactor", from /proc/self/task.</summary>
    private static TimeSpan? ReactorThreadCpu()
    {
        foreach (string task in Directory.EnumerateDirectories("/proc/self/task"))
        {
            if (File.ReadAllText(Path.Combine(task, "comm")).Trim() != "Net.Zmq reactor")
            {
                continue;
            }

            // Fields after the parenthesised name: state is field 3, utime 14 and stime 15 (clock ticks, 100 per second here).
            string stat = File.ReadAllText(Path.Combine(task, "stat"));
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            long ticks = long.Parse(fields[11]) + long.Parse(fields[12]);
            return TimeSpan.FromSeconds(ticks / 100.0);
        }

        return null;
    }
}
