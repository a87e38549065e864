namespace Net.Zmq.Benchmarks;

/// <summary>
/// The async round-trip row: <see cref="Sync"/>[i] and <see cref="Async"/>[i] are pair i, run one right after the
/// other; <see cref="NetMq"/> is NetMQ's async client, run once after the pairs.
/// </summary>
internal sealed record AsyncRoundTripResult(IReadOnlyList<LatencyResult> Sync, IReadOnlyList<LatencyResult> Async, LatencyResult NetMq)
{
    /// <summary>Async p50 ÷ sync p50, pair by pair.</summary>
    public double[] P50Ratios => [.. Async.Zip(Sync, (a, s) => a.P50 / s.P50)];

    /// <summary>Async p99 ÷ sync p99, pair by pair.</summary>
    public double[] P99Ratios => [.. Async.Zip(Sync, (a, s) => a.P99 / s.P99)];
}
