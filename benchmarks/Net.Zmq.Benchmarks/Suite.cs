namespace Net.Zmq.Benchmarks;

/// <summary>
/// The sizes and counts of one benchmark run. The short set (./build.sh bench) keeps every pattern but fewer sizes;
/// the full set (./build.sh bench --full) runs every size the issue lists. BenchmarkDotNet reads the sizes through
/// [ParamsSource], so a run is configured before the benchmarks are discovered.
/// </summary>
internal static class Suite
{
    /// <summary>Messages per benchmark operation, as in the seed documents.</summary>
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
}
