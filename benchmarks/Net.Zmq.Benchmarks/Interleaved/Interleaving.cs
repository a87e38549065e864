using System.Diagnostics;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Alternates a reference run with one run of each series: after warm-up rounds of every one (at least
/// <see cref="Suite.InterleavedWarmups"/>, and for at least <see cref="Suite.InterleavedWarmupTime"/>), pair i runs them all once,
/// the order turned by one place from pair to pair so that no series always runs first or right after another. A
/// run times itself and returns its ns; the managed bytes allocated by all threads are counted around each run, and
/// so is the CPU time of the process a series runs in, when the series has a clock for it.
/// After <see cref="Suite.InterleavedPairs"/> pairs, more are added while some series' median ratio is not resolved
/// to ±3% and <see cref="Suite.InterleavedBudget"/> is not spent.
/// </summary>
internal static class Interleaving
{
    /// <summary>A named series and its run.</summary>
    /// <param name="Cpu">
    /// The user + system time so far of the process the run executes in (all its threads), read before and after each
    /// run; null when not measured.
    /// </param>
    public readonly record struct Series(string Name, Func<ValueTask<double>> Run, Func<TimeSpan>? Cpu = null);

    /// <param name="measureReference">Whether the reference's allocations mean anything (not for a native process).</param>
    public static async Task<List<PairedSeries>> MeasureAsync(
        Series reference, bool measureReference, IReadOnlyList<Series> series, int size, int messages)
    {
        Series[] all = [reference, .. series];
        var warming = Stopwatch.StartNew();
        for (int w = 0; w < Suite.InterleavedWarmups || warming.Elapsed < Suite.InterleavedWarmupTime; w++)
        {
            foreach (Series s in all)
            {
                await s.Run().ConfigureAwait(false);
            }
        }

        List<double>[] ns = [.. all.Select(_ => new List<double>())];
        List<long>[] allocated = [.. all.Select(_ => new List<long>())];
        List<double>[] cpu = [.. all.Select(_ => new List<double>())];
        var started = Stopwatch.StartNew();
        List<PairedSeries> results;
        do
        {
            int pair = ns[0].Count;
            for (int i = 0; i < all.Length; i++)
            {
                int index = (i + pair) % all.Length;
                Func<TimeSpan>? clock = all[index].Cpu;
                TimeSpan cpuBefore = clock?.Invoke() ?? TimeSpan.Zero;
                long before = GC.GetTotalAllocatedBytes(precise: true);
                double time = await all[index].Run().ConfigureAwait(false);
                allocated[index].Add(GC.GetTotalAllocatedBytes(precise: true) - before);
                if (clock is not null)
                {
                    cpu[index].Add((clock() - cpuBefore).Ticks * 100.0);
                }

                ns[index].Add(time);
            }

            results = [.. series.Select((s, i) => new PairedSeries(
                s.Name, reference.Name, size, messages, [.. ns[0]], [.. ns[i + 1]], Valid(allocated[i + 1]), measureReference ? Valid(allocated[0]) : [],
                [.. cpu[i + 1]], [.. cpu[0]]))];
        }
        while (ns[0].Count < Suite.InterleavedPairs
               || (ns[0].Count < Suite.InterleavedMaxPairs && started.Elapsed < Suite.InterleavedBudget && !results.All(r => r.Resolves3Percent)));

        return results;
    }

    /// <summary>Nanoseconds since <paramref name="started"/>, a <see cref="Stopwatch.GetTimestamp"/> value.</summary>
    public static double ElapsedNs(long started) => (Stopwatch.GetTimestamp() - started) * 1e9 / Stopwatch.Frequency;

    /// <summary>The process-wide counter has been seen to go backwards under Server GC; such runs measured nothing.</summary>
    private static long[] Valid(List<long> bytes) => bytes.Any(b => b < 0) ? [] : [.. bytes];
}
