namespace Net.Zmq.Soak.Scenarios;

/// <summary>What the process holds right now, read from /proc/self and the GC.</summary>
public static class ProcessStats
{
    /// <summary>Open file descriptors (entries of /proc/self/fd).</summary>
    public static int OpenFileDescriptors() => Directory.GetFileSystemEntries("/proc/self/fd").Length;

    /// <summary>Resident set size in bytes (VmRSS of /proc/self/status).</summary>
    public static long ResidentBytes()
    {
        foreach (string line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
            {
                string kilobytes = line["VmRSS:".Length..].Trim().Split(' ')[0];
                return long.Parse(kilobytes, System.Globalization.CultureInfo.InvariantCulture) * 1024;
            }
        }

        throw new InvalidOperationException("/proc/self/status has no VmRSS line.");
    }

    /// <summary>Live managed bytes after a full, blocking collection.</summary>
    public static long ManagedBytesAfterCollection()
    {
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        return GC.GetTotalMemory(forceFullCollection: true);
    }

    /// <summary>
    /// Polls <paramref name="condition"/> until it holds or <paramref name="timeout"/> passes; true when it held.
    /// For state that only /proc shows (file descriptors closed by libzmq's reaper thread), which raises no event.
    /// </summary>
    public static bool WaitUntil(Func<bool> condition, TimeSpan timeout)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!condition())
        {
            if (clock.Elapsed > timeout)
            {
                return false;
            }

            Thread.Sleep(10);
        }

        return true;
    }
}
