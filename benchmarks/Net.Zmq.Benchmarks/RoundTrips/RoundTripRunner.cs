using System.Diagnostics;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Times every operation of a <see cref="RoundTripScenario"/> with the high-resolution clock, so the report can give
/// true per-round-trip percentiles, and counts the managed bytes all threads allocate while it runs.
/// </summary>
internal static class RoundTripRunner
{
    private const int Warmups = 1_000;

    public static LatencyResult Measure(string scenarioName, IRoundTripLibrary library, int size, Func<IRoundTripLibrary, RoundTripScenario> create)
    {
        int rounds = Suite.RoundTripRounds;
        int count = Suite.RoundTripSamples * rounds;
        long[] ticks = new long[count];
        long allocated;
        using (RoundTripScenario scenario = create(library))
        {
            for (int i = 0; i < Warmups; i++)
            {
                scenario.RunOnce();
            }

            long before = GC.GetTotalAllocatedBytes(precise: true);
            for (int i = 0; i < count; i++)
            {
                long started = Stopwatch.GetTimestamp();
                scenario.RunOnce();
                ticks[i] = Stopwatch.GetTimestamp() - started;
            }

            allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
        }

        return Summarize(scenarioName, library.Name, size, ticks, rounds, allocated);
    }

    /// <summary>
    /// Times <paramref name="roundTrip"/> the same way, for operations that are awaited; run it on the thread (and
    /// synchronization context) the library needs. Also records the process's CPU time per operation, and how many
    /// threads the thread pool gained meanwhile.
    /// </summary>
    /// <param name="rounds">Consecutive rounds of <see cref="Suite.RoundTripSamples"/> operations each.</param>
    public static async Task<LatencyResult> MeasureAsync(string scenarioName, string libraryName, int size, Func<ValueTask> roundTrip, int? rounds = null)
    {
        int roundCount = rounds ?? Suite.RoundTripRounds;
        int count = Suite.RoundTripSamples * roundCount;
        long[] ticks = new long[count];
        for (int i = 0; i < Warmups; i++)
        {
            await roundTrip();
        }

        // Environment.CpuUsage is the process's user + system time (getrusage), read without allocating.
        TimeSpan cpuBefore = Environment.CpuUsage.TotalTime;
        int poolThreadsBefore = ThreadPool.ThreadCount;
        long before = GC.GetTotalAllocatedBytes(precise: true);
        for (int i = 0; i < count; i++)
        {
            long started = Stopwatch.GetTimestamp();
            await roundTrip();
            ticks[i] = Stopwatch.GetTimestamp() - started;
        }

        long allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
        double cpuPerOperation = (Environment.CpuUsage.TotalTime - cpuBefore).Ticks * 100.0 / count;
        int poolThreadsAdded = Math.Max(0, ThreadPool.ThreadCount - poolThreadsBefore);
        return Summarize(scenarioName, libraryName, size, ticks, roundCount, allocated, cpuPerOperation, poolThreadsAdded);
    }

    private static LatencyResult Summarize(
        string scenarioName, string libraryName, int size, long[] ticks, int rounds, long allocated, double? cpuPerOperation = null, int? poolThreadsAdded = null)
    {
        double nsPerTick = 1e9 / Stopwatch.Frequency;
        double[] samples = Array.ConvertAll(ticks, t => t * nsPerTick);
        // The process-wide counter has been seen to go backwards under Server GC; such a window measures nothing.
        double? perOperation = allocated < 0 ? null : (double)allocated / ticks.Length;
        return LatencyResult.FromSamples(scenarioName, libraryName, size, samples, rounds, perOperation, cpuPerOperation, poolThreadsAdded);
    }
}
