using System.Globalization;

namespace Net.Zmq.Benchmarks;

/// <summary>How the report prints times, rates, data throughput and byte counts.</summary>
internal static class Units
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Messages per second of a 10,000-message operation taking <paramref name="meanNs"/>.</summary>
    public static double MessagesPerSecond(double meanNs) => Suite.MessageCount / (meanNs / 1e9);

    public static string Duration(double ns) => ns switch
    {
        >= 1e9 => string.Format(Invariant, "{0:F3} s", ns / 1e9),
        >= 1e6 => string.Format(Invariant, "{0:F3} ms", ns / 1e6),
        >= 1e3 => string.Format(Invariant, "{0:F2} μs", ns / 1e3),
        _ => string.Format(Invariant, "{0:F1} ns", ns),
    };

    public static string Rate(double perSecond) => perSecond switch
    {
        >= 1e6 => string.Format(Invariant, "{0:F2}M", perSecond / 1e6),
        >= 1e3 => string.Format(Invariant, "{0:F2}K", perSecond / 1e3),
        _ => string.Format(Invariant, "{0:F0}", perSecond),
    };

    public static string Data(double bytesPerSecond, int messageSize) => messageSize >= 65536
        ? string.Format(Invariant, "{0:F2} GB/s", bytesPerSecond / 1e9)
        : string.Format(Invariant, "{0:F2} Gbps", bytesPerSecond * 8 / 1e9);

    public static string Bytes(double bytes) => bytes switch
    {
        >= 1 << 30 => string.Format(Invariant, "{0:F2} GB", bytes / (1 << 30)),
        >= 1 << 20 => string.Format(Invariant, "{0:F2} MB", bytes / (1 << 20)),
        >= 1 << 10 => string.Format(Invariant, "{0:F2} KB", bytes / 1024),
        >= 10 or 0 => string.Format(Invariant, "{0:F0} B", bytes),
        // A few bytes spread over thousands of operations: shown, not rounded to "0 B".
        _ => string.Format(Invariant, "{0:F3} B", bytes),
    };

    public static string Size(int bytes) => bytes >= 1024 ? $"{bytes / 1024} KB" : $"{bytes} B";

    public static string Number(double value, string format = "F2") => value.ToString(format, Invariant);
}
