namespace Net.Zmq.Benchmarks;

/// <summary>
/// A series timed in alternation with a reference (native C against Net.Zmq, or blocking against async): run i of
/// the series and run i of the reference form pair i, taken seconds apart, so each pair's ratio is free of the drift
/// between phases minutes apart.
/// </summary>
/// <param name="Reference">What the ratio divides by: "Native (C)" or "blocking".</param>
/// <param name="Messages">Messages per run, the same on both sides.</param>
/// <param name="ReferenceNs">Time of each reference run, ns, in pair order.</param>
/// <param name="SeriesNs">Time of each series run, ns, in pair order.</param>
/// <param name="Allocated">Managed bytes allocated during each series run (by its calling threads, or by all threads when the series does not say which); empty when a counter went backwards.</param>
/// <param name="ReferenceAllocated">The same for the reference runs; empty when not measured (native C).</param>
/// <param name="SeriesCpuNs">CPU time (user + system, all threads) of the series' process during each series run, ns; empty when not measured.</param>
/// <param name="ReferenceCpuNs">The same for the reference's process during each reference run.</param>
internal sealed record PairedSeries(
    string Series, string Reference, int Size, int Messages, double[] ReferenceNs, double[] SeriesNs,
    long[] Allocated, long[] ReferenceAllocated, double[]? SeriesCpuNs = null, double[]? ReferenceCpuNs = null)
{
    public int Pairs => SeriesNs.Length;

    /// <summary>
    /// CPU time per message, ns, of the median run and over all runs together (total CPU ÷ total messages: a native
    /// process's time is counted in 10 ms clock ticks, which the mean averages out and a median of short runs does not);
    /// null when not measured.
    /// </summary>
    public (double Median, double Mean)? SeriesCpuPerMessage => PerMessage(SeriesCpuNs);

    /// <inheritdoc cref="SeriesCpuPerMessage"/>
    public (double Median, double Mean)? ReferenceCpuPerMessage => PerMessage(ReferenceCpuNs);

    public double ReferenceRate => Rate(Median(ReferenceNs));

    public double SeriesRate => Rate(Median(SeriesNs));

    /// <summary>Series messages/s ÷ reference messages/s, pair by pair.</summary>
    public double[] Ratios => [.. ReferenceNs.Zip(SeriesNs, (reference, series) => reference / series)];

    public double MedianRatio => Median(Ratios);

    /// <summary>The <see cref="Interval"/> of the median ratio.</summary>
    public (double Low, double High, double Coverage) MedianInterval => Interval(Ratios);

    /// <summary>Whether the interval of the median is narrow enough (±3% or less) to judge a 3% target.</summary>
    public bool Resolves3Percent => Resolves3(MedianInterval);

    /// <summary>
    /// A distribution-free confidence interval of the median of <paramref name="ratios"/>: the k-th smallest and k-th
    /// largest, with the largest k whose coverage (given as a fraction) is at least 90%; with 5 pairs that is the whole range.
    /// </summary>
    public static (double Low, double High, double Coverage) Interval(IEnumerable<double> ratios)
    {
        double[] sorted = [.. ratios.Order()];
        int n = sorted.Length, k = 1;
        while (k < n / 2 && Coverage(n, k + 1) >= 0.9)
        {
            k++;
        }

        return (sorted[k - 1], sorted[n - k], Coverage(n, k));
    }

    /// <summary>Whether an <see cref="Interval"/> is within ±3%.</summary>
    public static bool Resolves3((double Low, double High, double Coverage) interval) => (interval.High - interval.Low) / 2 <= 0.03;

    private double Rate(double ns) => Messages / (ns / 1e9);

    private (double, double)? PerMessage(double[]? cpuNs) =>
        cpuNs is { Length: > 0 } ? (Median(cpuNs) / Messages, cpuNs.Average() / Messages) : null;

    public static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        int middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>P(the k-th smallest ≤ median ≤ the k-th largest) for n samples: 1 − 2·P(Binomial(n, ½) &lt; k).</summary>
    private static double Coverage(int n, int k)
    {
        double tail = 0, term = Math.Pow(0.5, n);
        for (int i = 0; i < k; i++)
        {
            tail += term;
            term = term * (n - i) / (i + 1);
        }

        return 1 - (2 * tail);
    }
}
