namespace Net.Zmq.Benchmarks;

/// <summary>The CPU time of Net.Zmq's reactor thread (the thread named "Net.Zmq reactor"), read from /proc/self/task.</summary>
internal static class ReactorThread
{
    /// <summary>Clock ticks per second of /proc's utime and stime (sysconf(_SC_CLK_TCK), 100 on Linux).</summary>
    private const double TicksPerSecond = 100;

    /// <summary>utime + stime of the reactor thread; null when no such thread runs (no socket used asynchronously yet, or not Linux).</summary>
    public static TimeSpan? Cpu()
    {
        if (!Directory.Exists("/proc/self/task"))
        {
            return null;
        }

        foreach (string task in Directory.EnumerateDirectories("/proc/self/task"))
        {
            if (File.ReadAllText(Path.Combine(task, "comm")).Trim() != "Net.Zmq reactor")
            {
                continue;
            }

            // Fields after the parenthesised name: state is field 3, utime 14 and stime 15.
            string stat = File.ReadAllText(Path.Combine(task, "stat"));
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            long ticks = long.Parse(fields[11]) + long.Parse(fields[12]);
            return TimeSpan.FromSeconds(ticks / TicksPerSecond);
        }

        return null;
    }
}
