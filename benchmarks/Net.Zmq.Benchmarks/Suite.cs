namespace Net.Zmq.Benchmarks;

/// <summary>
/// The sizes and counts of one benchmark run. The short set (./build.sh bench) keeps every pattern but fewer sizes;
/// the full set (./build.sh bench --full) runs every size from 64 B to 256 KB. BenchmarkDotNet reads the sizes through
/// [ParamsSource], so a run is configured before the benchmarks are discovered.
/// </summary>
internal static class Suite
{
    /// <summary>Messages per benchmark operation, as in the first Net.Zmq's benchmark report.</summary>
    public const int MessageCount = 10_000;

    public static bool Full { get; set; } = true;

    public static IEnumerable<int> ReceiveModeSizes => Full ? [64, 512, 1024, 65536] : [64, 1024];

    public static IEnumerable<int> BufferStrategySizes =>
        Full ? [64, 512, 1024, 65536, 131072, 262144] : [64, 1024, 65536];

    public static IEnumerable<int> LibrarySizes => Full ? [64, 512, 1024, 65536] : [64, 1024, 65536];

    /// <summary>The payload sizes of the REQ/REP and DEALER/ROUTER round trips.</summary>
    public static int[] RoundTripSizes => [64, 512, 1024];

    /// <summary>Timed round trips per scenario and round.</summary>
    public static int RoundTripSamples => Full ? 20_000 : 4_000;

    /// <summary>Independent rounds per scenario, so the spread between rounds can be reported.</summary>
    public static int RoundTripRounds => 3;

    /// <summary>The sizes of the interleaved native C / Net.Zmq throughput runs.</summary>
    public static int[] InterleavedSizes => Full ? [64, 512, 1024, 65536, 131072, 262144] : [64, 1024, 65536, 262144];

    public static int InterleavedWarmups => Full ? 2 : 1;

    /// <summary>
    /// The least time the warm-up rounds of one size take in all: long enough for the runtime to have tiered up the
    /// code the runs use (its tiering waits for 100 ms without new tier-0 calls), which a 70 ms run at 64 B is not.
    /// </summary>
    public static TimeSpan InterleavedWarmupTime => TimeSpan.FromSeconds(1);

    /// <summary>Pairs (one run of each side) per size in the interleaved phases, at the least.</summary>
    public static int InterleavedPairs => Full ? 15 : 5;

    /// <summary>
    /// How long the pairs of one size may run in all: past <see cref="InterleavedPairs"/>, pairs are added while the
    /// median's interval is wider than ±3% and this time is not spent (and <see cref="InterleavedMaxPairs"/> not reached).
    /// </summary>
    public static TimeSpan InterleavedBudget => TimeSpan.FromSeconds(Full ? 60 : 40);

    /// <summary>
    /// The most pairs per size. A short run varies by 10–20% from the next on a 2-core machine (three busy threads on
    /// two cores), whatever its length, so a median ratio needs a few hundred pairs to resolve 3%; a round of the
    /// short runs (the reference before each of three series) takes about a tenth of a second at 64 B.
    /// </summary>
    public static int InterleavedMaxPairs => 400;

    /// <summary>
    /// Messages per interleaved run, the same for every side: at least 1.28 MB of payload (20,000 messages at 64 B);
    /// <see cref="MessageCount"/>, or 32 MB of payload when that is fewer messages (512 at 64 KB, 128 at 256 KB). A
    /// run then lasts 10–25 ms. A run's spread does not shrink with its length (a 64-byte run of 1,000,000 messages
    /// varied about as much as one of 100,000), so short runs buy more pairs in the same time.
    /// </summary>
    public static int InterleavedMessages(int size) => Math.Max(1_280_000 / size, Math.Min(MessageCount, 33_554_432 / size));

    /// <summary>The sizes of the async PUSH/PULL throughput row.</summary>
    public static int[] AsyncThroughputSizes => [64, 1024];

    /// <summary>Pairs of the alternating round-trip row (native C when given, sync, async, async with inline continuations), each run of <see cref="RoundTripSamples"/> round trips.</summary>
    public static int AsyncRoundTripPairs => 15;

    /// <summary>
    /// How long the process idles before each run of the alternating round-trip row. On a VM, how fast a sleeping thread
    /// is woken depends on how busy the virtual CPUs were just before; without the gap a sync run that followed an
    /// async one within two runs got a p50 near half that of one that did not, so a run's figure depended on its place.
    /// </summary>
    public static TimeSpan RoundTripIdleGap => TimeSpan.FromMilliseconds(500);

    /// <summary>How long each window of the 10,000-socket row runs.</summary>
    public static TimeSpan ManySocketsWindow => TimeSpan.FromSeconds(Full ? 15 : 5);
}
