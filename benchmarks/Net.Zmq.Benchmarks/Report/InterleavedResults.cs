namespace Net.Zmq.Benchmarks;

/// <summary>The results of the interleaved and async phases; a part is empty or null when it was not run.</summary>
/// <param name="NativeThroughput">Net.Zmq's ROUTER-to-ROUTER paths, each paired with native C runs.</param>
/// <param name="AsyncThroughput">Async PUSH/PULL, paired with blocking runs.</param>
internal sealed record InterleavedResults(
    IReadOnlyList<PairedSeries> NativeThroughput,
    IReadOnlyList<PairedSeries> AsyncThroughput,
    AsyncRoundTripResult? RoundTrips,
    ParkedReceivesResult? Parked,
    ManySocketsResult? ManySockets);
