using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The suite's first phase: ROUTER-to-ROUTER throughput of native C (the <c>serve</c> process) and, in this process,
/// of Net.Zmq's span and reused-Message paths and of bare P/Invoke calls into the same libzmq, run in alternation at
/// each size, so that each ratio to native compares runs taken seconds apart instead of phases taken minutes apart.
/// The CPU time of the process each run executes in is counted around it. <see cref="MeasureWithHeapKept"/> runs
/// the phase again in a child process with glibc's heap trimming held off in both processes.
/// </summary>
internal static class InterleavedThroughput
{
    /// <summary>
    /// The glibc tunables of the second pass: free memory is returned to the kernel only above a 256 MB trim threshold,
    /// and the heap grows 64 MB at a time, so the malloc/free of each message on two threads does not keep shrinking
    /// and growing the heap.
    /// </summary>
    public const string HeapTrimHeldOff = "glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864";

    /// <summary>The verb of the child process that runs the phase and writes its results as JSON.</summary>
    public const string ChildVerb = "interleaved-throughput";

    private static readonly JsonSerializerOptions Json = new() { IgnoreReadOnlyProperties = true };

    public static List<PairedSeries> Measure(string nativeExecutable)
    {
        var results = new List<PairedSeries>();
        using var native = new NativeServer(nativeExecutable);
        using var zmq = new RouterThroughput(Suite.InterleavedSizes.Max());
        using var pinvoke = new PInvokeRouterThroughput(Suite.InterleavedSizes.Max());
        Func<TimeSpan> self = static () => Environment.CpuUsage.TotalTime;
        foreach (int size in Suite.InterleavedSizes)
        {
            int messages = Suite.InterleavedMessages(size);
            var reference = new Interleaving.Series(NativeBaseline.Name, () => new(native.Throughput(size, messages)), () => native.ProcessorTime);
            Interleaving.Series[] series =
            [
                new("Span", () => new(zmq.RunSpan(size, messages)), self, zmq.AllocatedByCallers),
                new("Message", () => new(zmq.RunMessage(size, messages)), self, zmq.AllocatedByCallers),
                new("P/Invoke", () => new(pinvoke.Run(size, messages)), self, pinvoke.AllocatedByCallers),
            ];
            List<PairedSeries> measured = Interleaving.MeasureAsync(
                reference, measureReference: false, series, size, messages).GetAwaiter().GetResult();
            foreach (PairedSeries s in measured)
            {
                Console.WriteLine($"    {Units.Size(size)} {s.Series}: native {Units.Rate(s.ReferenceRate)} msg/s, .NET {Units.Rate(s.SeriesRate)} msg/s, " +
                                  $"ratio {Units.Number(s.MedianRatio, "F3")} ({Units.Number(s.Ratios.Min(), "F3")}–{Units.Number(s.Ratios.Max(), "F3")}), " +
                                  $"CPU/msg native {Cpu(s.ReferenceCpuPerMessage)}, .NET {Cpu(s.SeriesCpuPerMessage)}");
            }

            results.AddRange(measured);
        }

        return results;
    }

    /// <summary>
    /// The child's part (<c>interleaved-throughput --native PATH --json FILE [--full]</c>): <see cref="Measure"/>,
    /// written to FILE.
    /// </summary>
    public static void MeasureToFile(string nativeExecutable, string output) =>
        File.WriteAllText(output, JsonSerializer.Serialize(Measure(nativeExecutable), Json));

    /// <summary>
    /// Runs the phase again in a child process of this program with <see cref="HeapTrimHeldOff"/> in its environment,
    /// which its native C process inherits, so both sides get the same malloc setting. Returns the results, or none and
    /// why (not Linux with glibc, or the child failed).
    /// </summary>
    public static (List<PairedSeries> Results, string? Note) MeasureWithHeapKept(string nativeExecutable)
    {
        if (!OperatingSystem.IsLinux() || !IsGlibc())
        {
            return ([], "not run: the setting is a glibc tunable, and this process does not run on glibc (Linux)");
        }

        string output = Path.Combine(Path.GetTempPath(), $"netzmq-interleaved-{Environment.ProcessId}.json");
        var start = new ProcessStartInfo(Environment.ProcessPath!) { UseShellExecute = false };
        foreach (string arg in new[] { typeof(InterleavedThroughput).Assembly.Location, ChildVerb, "--native", nativeExecutable, "--json", output })
        {
            start.ArgumentList.Add(arg);
        }

        if (Suite.Full)
        {
            start.ArgumentList.Add("--full");
        }

        string? inherited = Environment.GetEnvironmentVariable("GLIBC_TUNABLES");
        start.Environment["GLIBC_TUNABLES"] = string.IsNullOrEmpty(inherited) ? HeapTrimHeldOff : inherited + ":" + HeapTrimHeldOff;
        try
        {
            using Process child = Process.Start(start)!;
            child.WaitForExit();
            if (child.ExitCode != 0 || !File.Exists(output))
            {
                return ([], $"failed: the child process exited with {child.ExitCode}");
            }

            return (JsonSerializer.Deserialize<List<PairedSeries>>(File.ReadAllText(output), Json) ?? [], null);
        }
        finally
        {
            File.Delete(output);
        }
    }

    private static bool IsGlibc() =>
        NativeLibrary.TryLoad("libc.so.6", out nint libc) && NativeLibrary.TryGetExport(libc, "gnu_get_libc_version", out _);

    private static string Cpu((double Median, double Mean)? perMessage) =>
        perMessage is var (median, mean) ? $"{Units.Duration(median)} (mean {Units.Duration(mean)})" : "-";
}
