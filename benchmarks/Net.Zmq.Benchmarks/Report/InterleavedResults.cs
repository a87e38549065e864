namespace Net.Zmq.Benchmarks;

/// <summary>The results of the interleaved and async phases; a part is empty or null when it was not run.</summary>
/// <param name="NativeThroughput">Net.Zmq's ROUTER-to-ROUTER paths, each paired with native C runs.</param>
/// <param name="AsyncThroughput">Async PUSH/PULL, paired with blocking runs.</param>
/// <param name="NativeThroughputNoTrim">
/// The same phase as <paramref name="NativeThroughput"/> run again in a child process, with glibc's heap trimming held
/// off in it and in its native C process (<see cref="InterleavedThroughput.HeapTrimHeldOff"/>); empty when not run.
/// </param>
/// <param name="NoTrimNote">Why that second pass was not run or failed; null when it ran or was not asked for.</param>
internal sealed record InterleavedResults(
    IReadOnlyList<PairedSeries> NativeThroughput,
    IReadOnlyList<PairedSeries> AsyncThroughput,
    AsyncRoundTripResult? RoundTrips,
    ParkedReceivesResult? Parked,
    ManySocketsResult? ManySockets,
    IReadOnlyList<PairedSeries>? NativeThroughputNoTrim = null,
    string? NoTrimNote = null);
