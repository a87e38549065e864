namespace Net.Zmq.Benchmarks;

/// <summary>
/// The async round-trip row: <see cref="Sync"/>[i], <see cref="Async"/>[i], <see cref="AsyncInline"/>[i] and, when the
/// native C program ran, <see cref="Native"/>[i] are pair i, run one right after the other; <see cref="NetMq"/> is
/// NetMQ's async client, run once after the pairs. <see cref="AsyncInline"/> is the async client with the inline
/// continuations switch on.
/// </summary>
internal sealed record AsyncRoundTripResult(
    IReadOnlyList<LatencyResult> Sync, IReadOnlyList<LatencyResult> Async, IReadOnlyList<LatencyResult> AsyncInline,
    LatencyResult NetMq, IReadOnlyList<LatencyResult> Native)
{
    /// <summary>Async p50 ÷ sync p50, pair by pair.</summary>
    public double[] P50Ratios => [.. Async.Zip(Sync, (a, s) => a.P50 / s.P50)];

    /// <summary>Async p99 ÷ sync p99, pair by pair.</summary>
    public double[] P99Ratios => [.. Async.Zip(Sync, (a, s) => a.P99 / s.P99)];

    /// <summary>Async p50 with inline continuations ÷ sync p50, pair by pair.</summary>
    public double[] InlineP50Ratios => [.. AsyncInline.Zip(Sync, (a, s) => a.P50 / s.P50)];

    /// <summary>Async p99 with inline continuations ÷ sync p99, pair by pair.</summary>
    public double[] InlineP99Ratios => [.. AsyncInline.Zip(Sync, (a, s) => a.P99 / s.P99)];

    /// <summary>Sync p50 ÷ native C p50, pair by pair (empty without the native program).</summary>
    public double[] SyncToNativeP50Ratios => [.. Sync.Zip(Native, (s, n) => s.P50 / n.P50)];

    /// <summary>Sync p99 ÷ native C p99, pair by pair (empty without the native program).</summary>
    public double[] SyncToNativeP99Ratios => [.. Sync.Zip(Native, (s, n) => s.P99 / n.P99)];
}
