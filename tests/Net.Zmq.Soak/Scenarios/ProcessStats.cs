namespace Net.Zmq.Soak.Scenarios;

/// <summary>What the process holds right now, read from /proc/self and the GC.</summary>
public static class ProcessStats
{
    /// <summary>Open file descriptors (entries of /proc/self/fd).</summary>
    public static int OpenFileDescriptors() => Directory.GetFileSystemEntries("/proc/self/fd").Length;

    /// <summary>
    /// The open file descriptors counted by kind ("socket 12, pipe 4, anon_inode:[eventfd] 30, file 60"), for a failure
    /// message that says what was left open.
    /// </summary>
    public static string DescribeOpenDescriptors()
    {
        var kinds = new SortedDictionary<string, int>(StringComparer.Ordinal);
        foreach (string fd in Directory.GetFileSystemEntries("/proc/self/fd"))
        {
            string? target;
            try
            {
                target = new FileInfo(fd).LinkTarget;
            }
            catch (IOException)
            {
                continue; // closed since the listing
            }

            string kind = target switch
            {
                null => "unknown",
                _ when target.StartsWith('/') => "file",
                _ when target.StartsWith("anon_inode:", StringComparison.Ordinal) => target,
                _ when target.Contains(":[", StringComparison.Ordinal) => target[..target.IndexOf(":[", StringComparison.Ordinal)],
                _ => target,
            };
            kinds[kind] = kinds.GetValueOrDefault(kind) + 1;
        }

        return string.Join(", ", kinds.Select(k => $"{k.Key} {k.Value}"));
    }

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
