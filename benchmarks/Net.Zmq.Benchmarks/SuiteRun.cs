using System.Diagnostics;
using System.Runtime;
using System.Runtime.InteropServices;
using System.Text.Json;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The run behind <c>./build.sh bench</c>: native C and Net.Zmq throughput interleaved, the native C baseline, the
/// BenchmarkDotNet throughput suites (Server GC), a Workstation GC subset in a child process, the round-trip
/// scenarios and the async rows, merged into one report and one chart.
/// <code>Net.Zmq.Benchmarks suite [--full] [--native PATH] [--results DIR]</code>
/// <c>interleaved</c> runs the interleaved phases and the async rows alone; <c>async</c> the async round trips and
/// parked receives alone; <c>interleaved-throughput</c> is the child process of the interleaved phase's second pass.
/// </summary>
internal static class SuiteRun
{
    private const string WorkstationChild = "--workstation-child";

    public static int Run(string[] args)
    {
        Suite.Full = args.Contains("--full");
        string results = Path.GetFullPath(Option(args, "--results") ?? "benchmarks/results");
        string? native = Option(args, "--native");
        if (GCSettings.IsServerGC)
        {
            GCSettings.LatencyMode = GCLatencyMode.Batch;
        }

        if (Option(args, WorkstationChild) is { } childOutput)
        {
            File.WriteAllText(childOutput, JsonSerializer.Serialize(RunWorkstationSubset(results)));
            return 0;
        }

        Directory.CreateDirectory(results);
        var stopwatch = Stopwatch.StartNew();
        var throughput = new List<ThroughputResult>();
        var latency = new List<LatencyResult>();
        NativeBaseline? baseline = Baseline(native);
        NativePhase interleaved = NativeInterleaved(native);

        if (baseline is not null)
        {
            Console.WriteLine("==> native C baseline");
            foreach (int size in Suite.BufferStrategySizes.Union(Suite.ReceiveModeSizes).Order())
            {
                throughput.Add(baseline.Throughput(size, warmups: Suite.Full ? 5 : 3, iterations: Suite.Full ? 20 : 7));
            }
        }

        IConfig config = Config(results);
        foreach (Type type in new[] { typeof(MessageBufferStrategyBenchmarks), typeof(ReceiveModeBenchmarks), typeof(NetMqThroughputBenchmarks) })
        {
            throughput.AddRange(Collect(BenchmarkRunner.Run(type, config)));
        }

        Console.WriteLine("==> round trips");
        latency.AddRange(RoundTrips(baseline));
        InterleavedResults paired = AsyncRows(interleaved, baseline, parkedReceives: true);
        Console.WriteLine("==> Workstation GC subset (child process)");
        IReadOnlyList<ThroughputResult> workstation = RunWorkstationChild(args, results);

        var environment = Environment($"./build.sh bench{(Suite.Full ? " --full" : "")}", baseline is not null, stopwatch.Elapsed);
        string markdown = new MarkdownReport(environment, throughput, workstation, latency, paired).Write();
        File.WriteAllText(Path.Combine(results, "latest.md"), markdown);
        var chartRows = throughput.Where(r => r.Suite is MarkdownReport.BufferSuite or "NetMQ" || (r.Suite == "Native" && Suite.BufferStrategySizes.Contains(r.Size))).ToList();
        File.WriteAllText(Path.Combine(results, "latest.svg"), SvgChart.Draw("Messages/s by message size (ROUTER to ROUTER, 10,000 messages per operation)", chartRows));
        Console.WriteLine(markdown);
        Console.WriteLine($"==> wrote {Path.Combine(results, "latest.md")} and latest.svg");
        return 0;
    }

    /// <summary>
    /// The interleaved phases and the async rows alone (minutes, not the whole suite): native C against Net.Zmq when
    /// --native is given (both passes), async against blocking throughput, the alternating async round trips and the
    /// 10,000 sockets; --no-async leaves out the async rows. Prints the report and, with --results, writes it to
    /// DIR/interleaved.md.
    /// </summary>
    public static int RunInterleaved(string[] args)
    {
        Suite.Full = args.Contains("--full");
        if (GCSettings.IsServerGC)
        {
            GCSettings.LatencyMode = GCLatencyMode.Batch;
        }

        var stopwatch = Stopwatch.StartNew();
        string? native = Option(args, "--native");
        bool asyncRows = !args.Contains("--no-async");
        NativePhase phase = NativeInterleaved(native);
        InterleavedResults paired = asyncRows
            ? AsyncRows(phase, Baseline(native), parkedReceives: false)
            : new InterleavedResults(phase.Default, [], null, null, null, phase.NoTrim, phase.NoTrimNote);
        string command = $"Net.Zmq.Benchmarks interleaved{(native is null ? "" : " --native " + native)}{(Suite.Full ? " --full" : "")}{(asyncRows ? "" : " --no-async")}";
        string markdown = new MarkdownReport(Environment(command, native is not null, stopwatch.Elapsed), [], [], [], paired).Write();
        Console.WriteLine(markdown);
        if (Option(args, "--results") is { } results)
        {
            Directory.CreateDirectory(results);
            File.WriteAllText(Path.Combine(results, "interleaved.md"), markdown);
            Console.WriteLine($"==> wrote {Path.Combine(Path.GetFullPath(results), "interleaved.md")}");
        }

        return 0;
    }

    /// <summary>
    /// The async measurements alone: the async round trips (with --native, alternating with native C's too) and the
    /// parked receives, printed as the report's async section.
    /// </summary>
    public static int RunAsyncOnly(string[] args)
    {
        Suite.Full = args.Contains("--full");
        var stopwatch = Stopwatch.StartNew();
        AsyncRoundTripResult trips = AsyncRoundTrips.Measure(Baseline(Option(args, "--native")));
        ParkedReceivesResult parked = ParkedReceivesResult.Measure(receives: 1000, duration: TimeSpan.FromSeconds(5));
        var paired = new InterleavedResults([], [], trips, parked, null);
        Console.WriteLine(new MarkdownReport(Environment("Net.Zmq.Benchmarks async", false, stopwatch.Elapsed), [], [], [], paired).Write());
        return 0;
    }

    /// <summary>The child of the interleaved phase's second pass: <c>--native PATH --json FILE [--full]</c>.</summary>
    public static int RunInterleavedThroughputChild(string[] args)
    {
        Suite.Full = args.Contains("--full");
        if (GCSettings.IsServerGC)
        {
            GCSettings.LatencyMode = GCLatencyMode.Batch;
        }

        string native = Option(args, "--native") ?? throw new ArgumentException("--native PATH is required");
        string output = Option(args, "--json") ?? throw new ArgumentException("--json FILE is required");
        InterleavedThroughput.MeasureToFile(Path.GetFullPath(native), output);
        return 0;
    }

    /// <summary>Both passes of the interleaved native phase: as the process runs, and with glibc's heap trimming held off.</summary>
    private sealed record NativePhase(List<PairedSeries> Default, List<PairedSeries> NoTrim, string? NoTrimNote);

    /// <summary>The native C program at <paramref name="path"/> (--native), or null when none was given.</summary>
    private static NativeBaseline? Baseline(string? path) => path is null ? null : new NativeBaseline(Path.GetFullPath(path));

    private static NativePhase NativeInterleaved(string? native)
    {
        if (native is null)
        {
            Console.WriteLine("==> interleaved native C / Net.Zmq throughput: not run (no --native)");
            return new([], [], null);
        }

        Console.WriteLine("==> interleaved native C / Net.Zmq / P/Invoke throughput (ROUTER to ROUTER)");
        List<PairedSeries> results = InterleavedThroughput.Measure(Path.GetFullPath(native));
        Console.WriteLine($"==> the same, glibc heap trimming held off in both processes (child process, GLIBC_TUNABLES={InterleavedThroughput.HeapTrimHeldOff})");
        (List<PairedSeries> noTrim, string? note) = InterleavedThroughput.MeasureWithHeapKept(Path.GetFullPath(native));
        if (note is not null)
        {
            Console.WriteLine($"    {note}");
        }

        return new(results, noTrim, note);
    }

    private static InterleavedResults AsyncRows(NativePhase interleaved, NativeBaseline? native, bool parkedReceives)
    {
        Console.WriteLine("==> async / blocking throughput, interleaved (PUSH to PULL)");
        List<PairedSeries> asyncThroughput = PushPullThroughput.Measure();
        Console.WriteLine($"==> async round trips, alternating with sync{(native is null ? "" : " and native C")}");
        AsyncRoundTripResult trips = AsyncRoundTrips.Measure(native);
        ParkedReceivesResult? parked = null;
        if (parkedReceives)
        {
            Console.WriteLine("==> parked receives");
            parked = ParkedReceivesResult.Measure(receives: 1000, duration: TimeSpan.FromSeconds(5));
        }

        Console.WriteLine($"==> {ManySockets.TotalSockets:N0} sockets in async use");
        ManySocketsResult many = ManySockets.Measure(Suite.ManySocketsWindow);
        return new InterleavedResults(interleaved.Default, asyncThroughput, trips, parked, many, interleaved.NoTrim, interleaved.NoTrimNote);
    }

    private static List<LatencyResult> RoundTrips(NativeBaseline? baseline)
    {
        var results = new List<LatencyResult>();
        IRoundTripLibrary[] libraries = [new ZmqLibrary(), new NetMqLibrary()];
        foreach (int size in Suite.RoundTripSizes)
        {
            foreach ((string scenario, string pattern, bool routed) in new[] { ("REQ/REP", "req-rep", false), ("DEALER/ROUTER", "dealer-router", true) })
            {
                if (baseline is not null)
                {
                    results.Add(baseline.RoundTrip(scenario, pattern, size));
                }

                foreach (IRoundTripLibrary library in libraries)
                {
                    results.Add(RoundTripRunner.Measure(scenario, library, size, l => new EchoScenario(l, routed, size)));
                }
            }
        }

        if (baseline is not null)
        {
            results.Add(baseline.RoundTrip("Client→Server RTT", "dealer-router", 64));
        }

        foreach (IRoundTripLibrary library in libraries)
        {
            results.Add(RoundTripRunner.Measure("Client→Server RTT", library, 64, l => new EchoScenario(l, routed: true, 64)));
            results.Add(RoundTripRunner.Measure("Game Tick", library, 60, l => new GameTickScenario(l)));
            results.Add(RoundTripRunner.Measure("Server→Server RTT", library, 64, l => new ServerToServerScenario(l)));
            results.Add(RoundTripRunner.Measure("Sequential 10 messages", library, 64, l => new EchoScenario(l, routed: true, 64, requests: 10)));
        }

        foreach (IRoundTripLibrary library in libraries)
        {
            library.Dispose();
        }

        return [.. results.OrderBy(r => r.Scenario.StartsWith("REQ", StringComparison.Ordinal) || r.Scenario.StartsWith("DEALER", StringComparison.Ordinal) ? 0 : 1)];
    }

    private static IConfig Config(string results)
    {
        // One operation (10,000 messages, milliseconds to seconds) per iteration: no pilot stage, which on a loaded
        // two-core machine spent most of the time looking for an invocation count.
        Job job = Job.Default
            .WithWarmupCount(Suite.Full ? 5 : 3)
            .WithIterationCount(Suite.Full ? 20 : 7)
            .WithLaunchCount(1)
            .WithInvocationCount(1)
            .WithUnrollFactor(1)
            .WithToolchain(InProcessEmitToolchain.Instance)
            .WithId(GCSettings.IsServerGC ? "ServerGC" : "WorkstationGC");
        return ManualConfig.CreateEmpty()
            .AddJob(job)
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddColumn(ThroughputColumn.Latency, ThroughputColumn.MessagesPerSecond, ThroughputColumn.DataThroughput)
            .AddLogger(ConsoleLogger.Default)
            .AddExporter(MarkdownExporter.GitHub)
            .WithArtifactsPath(Path.Combine(results, "BenchmarkDotNet"));
    }

    private static List<ThroughputResult> Collect(Summary summary)
    {
        var rows = new List<ThroughputResult>();
        foreach (BenchmarkReport report in summary.Reports)
        {
            BenchmarkCase benchmark = report.BenchmarkCase;
            if (report.ResultStatistics is not { } statistics || benchmark.Parameters["MessageSize"] is not int size)
            {
                continue;
            }

            string suite = benchmark.Descriptor.Type == typeof(ReceiveModeBenchmarks) ? MarkdownReport.ReceiveSuite
                : benchmark.Descriptor.Type == typeof(NetMqThroughputBenchmarks) ? "NetMQ" : MarkdownReport.BufferSuite;
            GcStats gc = report.GcStats;
            double perThousand = gc.TotalOperations == 0 ? 0 : 1000.0 / gc.TotalOperations;
            rows.Add(new ThroughputResult(
                suite, benchmark.Descriptor.WorkloadMethodDisplayInfo, size, statistics.Mean, statistics.StandardDeviation,
                gc.GetBytesAllocatedPerOperation(benchmark), gc.Gen0Collections * perThousand, gc.Gen1Collections * perThousand,
                gc.Gen2Collections * perThousand, GCSettings.IsServerGC ? "Server" : "Workstation"));
        }

        return rows;
    }

    /// <summary>The child's part: a few buffer strategies at two sizes under Workstation GC.</summary>
    private static List<ThroughputResult> RunWorkstationSubset(string results)
    {
        string[] methods = ["ByteArray", "ArrayPool", "Message", "Span"];
        IConfig config = Config(Path.Combine(results, "workstation"))
            .AddFilter(new SimpleFilter(c => methods.Contains(c.Descriptor.WorkloadMethod.Name) && c.Parameters["MessageSize"] is 64 or 1024));
        return Collect(BenchmarkRunner.Run<MessageBufferStrategyBenchmarks>(config));
    }

    private static List<ThroughputResult> RunWorkstationChild(string[] args, string results)
    {
        string output = Path.Combine(results, "workstation.json");
        var start = new ProcessStartInfo(System.Environment.ProcessPath!) { UseShellExecute = false };
        start.ArgumentList.Add(Assembly());
        foreach (string arg in new[] { "suite", WorkstationChild, output, "--results", results }.Concat(args.Where(a => a == "--full")))
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["DOTNET_gcServer"] = "0";
        using Process child = Process.Start(start)!;
        child.WaitForExit();
        return child.ExitCode == 0 && File.Exists(output)
            ? JsonSerializer.Deserialize<List<ThroughputResult>>(File.ReadAllText(output)) ?? []
            : throw new InvalidOperationException($"The Workstation GC child exited with {child.ExitCode}.");
    }

    private static string Assembly() => typeof(SuiteRun).Assembly.Location;

    private static List<string> Environment(string command, bool withNative, TimeSpan elapsed)
    {
        string cpu = File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "unknown"
            : "unknown";
        string set = Suite.Full
            ? $"full set: 5 warm-ups, 20 iterations per BenchmarkDotNet case; at least {Suite.InterleavedPairs} interleaved pairs per size"
            : $"short set: 3 warm-ups, 7 iterations per BenchmarkDotNet case; at least {Suite.InterleavedPairs} interleaved pairs per size";
        return
        [
            $"Command: `{command}` ({set}), {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {elapsed.TotalMinutes:F1} min",
            $"CPU: {cpu}, {System.Environment.ProcessorCount} logical cores; OS: {RuntimeInformation.OSDescription}",
            $".NET {System.Environment.Version}, {RuntimeInformation.ProcessArchitecture}; GC: {(GCSettings.IsServerGC ? "Server" : "Workstation")} ({GCSettings.LatencyMode}) for the main tables, Workstation for the subset",
            $"BenchmarkDotNet {typeof(BenchmarkRunner).Assembly.GetName().Version}, in-process toolchain, MemoryDiagnoser; libzmq {Context.Version}; NetMQ {typeof(NetMQ.Msg).Assembly.GetName().Version}",
            withNative ? "Native (C): benchmarks/native/zmq_native_bench.c, gcc -O2 against the same libzmq, run from this process in the same run" : "Native (C): not run (no --native)",
        ];
    }

    private static string? Option(string[] args, string name)
    {
        int index = Array.IndexOf(args, name);
        return index >= 0 && index + 1 < args.Length ? args[index + 1] : null;
    }
}
