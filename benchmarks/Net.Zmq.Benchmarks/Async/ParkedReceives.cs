using System.Diagnostics;

namespace Net.Zmq.Benchmarks;

/// <summary>The CPU that parked receives cost: none should be spent while nothing arrives.</summary>
/// <param name="ProcessCpu">CPU time of the whole process over <paramref name="Duration"/>.</param>
/// <param name="ReactorCpu">CPU time of Net.Zmq's reactor threads over the same time, read from /proc.</param>
internal sealed record ParkedReceivesResult(int Receives, TimeSpan Duration, TimeSpan ProcessCpu, TimeSpan? ReactorCpu, int ThreadPoolThreads, int CompletedOnDispose)
{
    /// <summary>Parks <paramref name="receives"/> RecvAsync calls on PULL sockets that get nothing, and measures the CPU used over <paramref name="duration"/>.</summary>
    public static ParkedReceivesResult Measure(int receives, TimeSpan duration)
    {
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        var parked = new ParkedSockets(context, "parked", receives);

        using Process process = Process.GetCurrentProcess();
        TimeSpan processBefore = process.TotalProcessorTime;
        TimeSpan? reactorBefore = ReactorThread.Cpu();
        Thread.Sleep(duration);
        process.Refresh();
        TimeSpan processCpu = process.TotalProcessorTime - processBefore;
        TimeSpan? reactorCpu = ReactorThread.Cpu() - reactorBefore;
        int threads = ThreadPool.ThreadCount;

        int completed = parked.Close();
        return new ParkedReceivesResult(receives, duration, processCpu, reactorCpu, threads, completed);
    }
}
