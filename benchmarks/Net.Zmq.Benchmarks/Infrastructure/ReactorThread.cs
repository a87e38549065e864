using Net.Zmq.Async;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The CPU time of Net.Zmq's reactor threads (the threads named "Net.Zmq reactor"), read from /proc/self/task. With
/// inline continuations on, it includes the continuations they ran themselves (the code after an await they
/// completed), which is user code; by default those run on the thread pool.
/// </summary>
internal static class ReactorThread
{
    /// <summary>Clock ticks per second of /proc's utime and stime (sysconf(_SC_CLK_TCK), 100 on Linux).</summary>
    private const double TicksPerSecond = 100;

    /// <summary>utime + stime of the reactor threads together; null when none runs (no socket used asynchronously yet, or not Linux).</summary>
    public static TimeSpan? Cpu()
    {
        if (!Directory.Exists("/proc/self/task"))
        {
            return null;
        }

        long ticks = 0;
        bool found = false;
        foreach (string task in Directory.EnumerateDirectories("/proc/self/task"))
        {
            // A thread that exits while the list is read (a thread-pool thread retiring) leaves no files to read.
            if (Read(task, "comm")?.Trim() != SocketReactor.ThreadName || Read(task, "stat") is not { } stat)
            {
                continue;
            }

            // Fields after the parenthesised name: state is field 3, utime 14 and stime 15.
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            ticks += long.Parse(fields[11]) + long.Parse(fields[12]);
            found = true;
        }

        return found ? TimeSpan.FromSeconds(ticks / TicksPerSecond) : null;
    }

    /// <summary>A file of a thread's /proc directory, or null when the thread has exited.</summary>
    private static string? Read(string task, string file)
    {
        try
        {
            return File.ReadAllText(Path.Combine(task, file));
        }
        catch (IOException)
        {
            return null;
        }
    }
}
