using System.Globalization;
using Xunit.Abstractions;

namespace Net.Zmq.Reliability.Tests.Support;

/// <summary>Seeds for randomised tests: NETZMQ_TEST_SEED when set (to replay a failure), else a fresh one; always printed.</summary>
internal static class RandomSeed
{
    /// <summary>Picks the seed and writes it to the test's output.</summary>
    public static int Next(ITestOutputHelper output)
    {
        string? fixedSeed = Environment.GetEnvironmentVariable("NETZMQ_TEST_SEED");
        int seed = fixedSeed is null ? Random.Shared.Next() : int.Parse(fixedSeed, CultureInfo.InvariantCulture);
        output.WriteLine($"seed {seed} (replay with NETZMQ_TEST_SEED={seed})");
        return seed;
    }
}
