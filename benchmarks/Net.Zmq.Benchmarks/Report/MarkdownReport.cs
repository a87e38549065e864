using System.Text;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Writes benchmarks/results/latest.md: environment, the interleaved native/Net.Zmq comparison, the merged tables,
/// each target with its measured ratio, and the async rows. A section whose phase was not run is left out.
/// </summary>
internal sealed partial class MarkdownReport(
    IReadOnlyList<string> environment,
    IReadOnlyList<ThroughputResult> throughput,
    IReadOnlyList<ThroughputResult> workstation,
    IReadOnlyList<LatencyResult> latency,
    InterleavedResults paired)
{
    public const string BufferSuite = "Buffer strategy";
    public const string ReceiveSuite = "Receive mode";

    private readonly StringBuilder _text = new();

    public string Write()
    {
        Line("# Net.Zmq benchmark results");
        Line();
        foreach (string line in environment)
        {
            Line($"- {line}");
        }

        InterleavedSection();
        if (throughput.Count > 0)
        {
            Line();
            Line("## Throughput by phase");
            Line();
            Line("Throughput rows: one operation = 10,000 ROUTER-to-ROUTER messages over tcp://127.0.0.1, HWM 0, sender and receiver on two threads. " +
                 "± is the standard deviation of the iterations. Ratio is the time against the suite's baseline; \"of native\" is messages/s against the Native (C) row of the same size, " +
                 "measured in another phase of the run, minutes apart (the interleaved table above is the like-for-like comparison). " +
                 "Gen0 is collections per 1,000 operations.");
            ThroughputSection("Message buffer strategies (Server GC)", BufferSuite, "ByteArray", throughput);
            ThroughputSection("Receive modes (Server GC)", ReceiveSuite, "PureBlocking", throughput);
            if (workstation.Count > 0)
            {
                ThroughputSection("Message buffer strategies (Workstation GC, subset)", BufferSuite, "ByteArray", workstation);
            }
        }

        if (latency.Count > 0)
        {
            LatencySection();
        }

        TargetSection();
        AsyncSection();
        return _text.ToString();
    }

    private void ThroughputSection(string title, string suite, string baseline, IReadOnlyList<ThroughputResult> source)
    {
        Line();
        Line($"## {title}");
        foreach (int size in source.Where(r => r.Suite == suite).Select(r => r.Size).Distinct().Order())
        {
            var rows = source.Where(r => r.Suite == suite && r.Size == size).ToList();
            rows.AddRange(source.Where(r => r.Suite is "NetMQ" or "Native" && r.Size == size && r.Suite != suite));
            ThroughputResult? native = source.FirstOrDefault(r => r.Suite == "Native" && r.Size == size);
            ThroughputResult? reference = rows.FirstOrDefault(r => r.Series == baseline);
            Line();
            Line($"### {Units.Size(size)}");
            Line();
            Line("| Series | Mean | ± | Latency | Messages/s | Data | Allocated | Gen0 | Gen1 | Gen2 | Ratio | of native |");
            Line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            foreach (ThroughputResult r in rows)
            {
                string ratio = reference is null ? "-" : Units.Number(r.Mean / reference.Mean) + "x";
                string ofNative = native is null ? "-" : Units.Number(r.MessagesPerSecond / native.MessagesPerSecond * 100, "F0") + "%";
                string allocated = r.Allocated is { } a ? Units.Bytes(a) : "n/a";
                Line($"| {r.Series} | {Units.Duration(r.Mean)} | {Units.Duration(r.StdDev)} | {Units.Duration(r.Mean / Suite.MessageCount)} | " +
                     $"{Units.Rate(r.MessagesPerSecond)} | {Units.Data(r.MessagesPerSecond * size, size)} | {allocated} | " +
                     $"{Gc(r.Gen0)} | {Gc(r.Gen1)} | {Gc(r.Gen2)} | {ratio} | {ofNative} |");
            }
        }
    }

    private void LatencySection()
    {
        Line();
        Line("## Round trips");
        Line();
        Line("Every operation timed on its own; ± is half the range between three consecutive rounds' means. " +
             "Allocated counts the managed bytes of all threads (requester and responders) per operation. " +
             "Responders use a blocking receive on a dedicated thread for every library.");
        Line();
        Line("| Scenario | Size | Library | Mean | ± | p50 | p90 | p99 | Allocated/op | vs native |");
        Line("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (LatencyResult r in latency)
        {
            LatencyResult? native = latency.FirstOrDefault(n => n.Library == NativeBaseline.Name && n.Scenario == r.Scenario && n.Size == r.Size);
            string vsNative = native is null ? "-" : Units.Number(r.Mean / native.Mean) + "x";
            string allocated = r.AllocatedPerOperation is { } a ? Units.Bytes(a) : "n/a";
            Line($"| {r.Scenario} | {Units.Size(r.Size)} | {r.Library} | {Units.Duration(r.Mean)} | {Units.Duration(r.Spread)} | " +
                 $"{Units.Duration(r.P50)} | {Units.Duration(r.P90)} | {Units.Duration(r.P99)} | {allocated} | {vsNative} |");
        }
    }

    private void TargetSection()
    {
        var rows = TargetCheck.EvaluatePaired(paired).ToList();
        if (throughput.Count > 0)
        {
            rows.AddRange(TargetCheck.Evaluate(throughput, latency));
        }

        Line();
        Line("## Targets");
        Line();
        Line("| Target | Measured | Result |");
        Line("|---|---|---|");
        foreach ((string target, string measured, bool? met) in rows)
        {
            Line($"| {target} | {measured} | {(met is null ? "not measured" : met.Value ? "met" : "missed")} |");
        }
    }

    private static string Gc(double perThousand) => perThousand == 0 ? "-" : Units.Number(perThousand, "F1");

    private void Line(string text = "") => _text.Append(text).Append('\n');
}
