using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// A column derived from an operation's mean time, its MessageSize parameter and <see cref="Suite.MessageCount"/>:
/// per-message latency, messages per second, or data throughput.
/// </summary>
internal sealed class ThroughputColumn : IColumn
{
    private readonly Func<double, int, string> _format;

    private ThroughputColumn(string name, string legend, Func<double, int, string> format)
    {
        ColumnName = name;
        Legend = legend;
        _format = format;
    }

    /// <summary>Mean / messages per operation.</summary>
    public static ThroughputColumn Latency { get; } = new(
        "Latency", "Mean time per message (Mean / 10,000)", static (meanNs, _) => Units.Duration(meanNs / Suite.MessageCount));

    /// <summary>Messages per operation / Mean.</summary>
    public static ThroughputColumn MessagesPerSecond { get; } = new(
        "Messages/s", "Messages per second", static (meanNs, _) => Units.Rate(Units.MessagesPerSecond(meanNs)));

    /// <summary>Payload bytes per second: Gbps below 64 KB, GB/s from 64 KB.</summary>
    public static ThroughputColumn DataThroughput { get; } = new(
        "Data", "Payload throughput (Gbps below 64 KB messages, GB/s from 64 KB)",
        static (meanNs, size) => Units.Data(Units.MessagesPerSecond(meanNs) * size, size));

    public string Id => nameof(ThroughputColumn) + ColumnName;

    public string ColumnName { get; }

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend { get; }

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        double? mean = summary[benchmarkCase]?.ResultStatistics?.Mean;
        object? size = benchmarkCase.Parameters["MessageSize"];
        return mean is null || size is not int bytes ? "-" : _format(mean.Value, bytes);
    }

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;
}
