namespace Net.Zmq.Benchmarks;

/// <summary>The statistics of one round-trip scenario for one library, in nanoseconds.</summary>
/// <param name="Spread">Half the range between the rounds' means: how far a repeat run may land from <paramref name="Mean"/>.</param>
/// <param name="AllocatedPerOperation">Managed bytes allocated per operation by all threads; null for native C, or when the counter went backwards.</param>
/// <param name="CpuPerOperation">Process CPU time (user + system, all threads) per operation, ns; null when not measured.</param>
/// <param name="PoolThreadsAdded">
/// How many threads the thread pool gained while the operations ran (<see cref="ThreadPool.ThreadCount"/> after minus
/// before, 0 when it lost some); null when not measured. A thread the pool starts allocates its own objects, which the
/// all-threads allocation count then includes.
/// </param>
internal sealed record LatencyResult(
    string Scenario, string Library, int Size, double Mean, double Spread, double P50, double P90, double P99,
    double? AllocatedPerOperation, double? CpuPerOperation = null, int? PoolThreadsAdded = null)
{
    /// <summary>Statistics of <paramref name="samples"/> (ns), taken as <paramref name="rounds"/> consecutive rounds.</summary>
    public static LatencyResult FromSamples(
        string scenario, string library, int size, double[] samples, int rounds, double? allocatedPerOperation, double? cpuPerOperation = null,
        int? poolThreadsAdded = null)
    {
        int perRound = samples.Length / rounds;
        double[] roundMeans = new double[rounds];
        for (int r = 0; r < rounds; r++)
        {
            roundMeans[r] = samples.AsSpan(r * perRound, perRound).ToArray().Average();
        }

        double[] sorted = (double[])samples.Clone();
        Array.Sort(sorted);
        return new LatencyResult(
            scenario, library, size, samples.Average(), (roundMeans.Max() - roundMeans.Min()) / 2,
            Percentile(sorted, 50), Percentile(sorted, 90), Percentile(sorted, 99), allocatedPerOperation, cpuPerOperation, poolThreadsAdded);
    }

    private static double Percentile(double[] sorted, double percent) =>
        sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(percent / 100 * sorted.Length) - 1)];
}
