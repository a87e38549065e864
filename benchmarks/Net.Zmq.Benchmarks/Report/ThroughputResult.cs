namespace Net.Zmq.Benchmarks;

/// <summary>One 10,000-message operation's statistics: a BenchmarkDotNet case, or the native C program.</summary>
/// <param name="Suite">"Buffer strategy", "Receive mode" or "NetMQ".</param>
/// <param name="Series">The strategy, mode or library shown in the table and chart.</param>
/// <param name="Mean">Mean time per operation, ns.</param>
/// <param name="StdDev">Standard deviation of the iterations, ns.</param>
/// <param name="Allocated">Managed bytes allocated per operation; null when not measured (native C).</param>
/// <param name="Gen0">Gen0 collections per 1,000 operations, as BenchmarkDotNet reports them.</param>
internal sealed record ThroughputResult(
    string Suite, string Series, int Size, double Mean, double StdDev, double? Allocated,
    double Gen0, double Gen1, double Gen2, string Gc)
{
    public double MessagesPerSecond => Units.MessagesPerSecond(Mean);
}
