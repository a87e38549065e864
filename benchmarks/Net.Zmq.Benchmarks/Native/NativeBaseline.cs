using System.Diagnostics;
using System.Globalization;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Runs benchmarks/native/zmq_native_bench (libzmq driven from C) from inside this process, so its figures come from
/// the same run as the .NET ones and can be merged as "Native (C)" rows.
/// </summary>
internal sealed class NativeBaseline(string executable)
{
    public const string Name = "Native (C)";

    /// <summary>The ROUTER-to-ROUTER throughput pattern: warm-ups, then timed 10,000-message iterations.</summary>
    public ThroughputResult Throughput(int size, int warmups, int iterations)
    {
        double[] times = Run($"throughput {size} {Suite.MessageCount} {warmups} {iterations}", 3);
        double mean = times.Average();
        double stdDev = Math.Sqrt(times.Sum(t => (t - mean) * (t - mean)) / Math.Max(1, times.Length - 1));
        return new ThroughputResult("Native", Name, size, mean, stdDev, null, 0, 0, 0, "-");
    }

    /// <summary>REQ/REP ("req-rep") or DEALER/ROUTER ("dealer-router") echo round trips: 1,000 warm-ups, then <paramref name="rounds"/> (by default <see cref="Suite.RoundTripRounds"/>) of <see cref="Suite.RoundTripSamples"/>.</summary>
    public LatencyResult RoundTrip(string scenario, string pattern, int size, int? rounds = null)
    {
        int roundCount = rounds ?? Suite.RoundTripRounds;
        double[] samples = Run($"roundtrip {pattern} {size} 1000 {Suite.RoundTripSamples * roundCount}", 3);
        return LatencyResult.FromSamples(scenario, Name, size, samples, roundCount, null);
    }

    private double[] Run(string arguments, int headerFields)
    {
        var start = new ProcessStartInfo(executable, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"Cannot start {executable}");
        string output = process.StandardOutput.ReadToEnd();
        string error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{executable} {arguments} exited with {process.ExitCode}: {error}");
        }

        return output.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Skip(headerFields)
            .Select(field => double.Parse(field, CultureInfo.InvariantCulture))
            .ToArray();
    }
}
