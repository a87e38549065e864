using System.Diagnostics;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Alternates a reference run with one run of each series: after warm-up rounds of every one (at least
/// <see cref="Suite.InterleavedWarmups"/>, and for at least <see cref="Suite.InterleavedWarmupTime"/>), each round runs
/// the reference before every series (reference, A, reference, B, …), and pair i of a series is its i-th run with the
/// reference run just before it. So every run follows a run of the other side, as in a plain A, B, A, B alternation.
/// The series run in a new random order each round, seeded with the size so the orders are the same from run to run.
/// With one order turned by a place each pair, one series always ran right after the reference and the others right
/// after another series of their own process, whose threads, caches and heap that run had just warmed; at 256 KB,
/// where the binding's per-call cost is nil, that put the series that always followed `Message` 16% ahead of the one
/// that always followed native C. A run times itself and returns its ns; the managed bytes allocated by the threads
/// that make its calls (by default all threads) are counted around each run, and so is the CPU time of the process a
/// series runs in, when the series has a clock for it.
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
    /// <param name="Allocated">
    /// The managed bytes allocated so far by the threads that make the run's calls, read before and after each run on
    /// the thread that starts it; null to count every thread of the process (<see cref="GC.GetTotalAllocatedBytes"/>).
    /// </param>
    public readonly record struct Series(string Name, Func<ValueTask<double>> Run, Func<TimeSpan>? Cpu = null, Func<long>? Allocated = null);

    /// <param name="measureReference">Whether the reference's allocations mean anything (not for a native process).</param>
    public static async Task<List<PairedSeries>> MeasureAsync(
        Series reference, bool measureReference, IReadOnlyList<Series> series, int size, int messages)
    {
        var warming = Stopwatch.StartNew();
        for (int w = 0; w < Suite.InterleavedWarmups || warming.Elapsed < Suite.InterleavedWarmupTime; w++)
        {
            foreach (Series s in (Series[])[reference, .. series])
            {
                await s.Run().ConfigureAwait(false);
            }
        }

        Runs[] references = [.. series.Select(_ => new Runs())];
        Runs[] runs = [.. series.Select(_ => new Runs())];
        int[] order = [.. Enumerable.Range(0, series.Count)];
        var random = new Random(size);
        var started = Stopwatch.StartNew();
        List<PairedSeries> results;
        do
        {
            random.Shuffle(order);
            foreach (int index in order)
            {
                await references[index].AddAsync(reference).ConfigureAwait(false);
                await runs[index].AddAsync(series[index]).ConfigureAwait(false);
            }

            results = [.. series.Select((s, i) => new PairedSeries(
                s.Name, reference.Name, size, messages, [.. references[i].Ns], [.. runs[i].Ns], runs[i].ValidAllocated(),
                measureReference ? references[i].ValidAllocated() : [], [.. runs[i].Cpu], [.. references[i].Cpu]))];
        }
        while (runs[0].Ns.Count < Suite.InterleavedPairs
               || (runs[0].Ns.Count < Suite.InterleavedMaxPairs && started.Elapsed < Suite.InterleavedBudget && !results.All(r => r.Resolves3Percent)));

        return results;
    }

    /// <summary>Nanoseconds since <paramref name="started"/>, a <see cref="Stopwatch.GetTimestamp"/> value.</summary>
    public static double ElapsedNs(long started) => (Stopwatch.GetTimestamp() - started) * 1e9 / Stopwatch.Frequency;

    /// <summary>The time, allocated bytes and CPU time of each run of one side of a pairing, in order.</summary>
    private sealed class Runs
    {
        public List<double> Ns { get; } = [];

        public List<double> Cpu { get; } = [];

        private readonly List<long> _allocated = [];

        public async ValueTask AddAsync(Series series)
        {
            TimeSpan cpuBefore = series.Cpu?.Invoke() ?? TimeSpan.Zero;
            Func<long> allocated = series.Allocated ?? AllThreads;
            long before = allocated();
            double time = await series.Run().ConfigureAwait(false);
            _allocated.Add(allocated() - before);
            if (series.Cpu is { } clock)
            {
                Cpu.Add((clock() - cpuBefore).Ticks * 100.0);
            }

            Ns.Add(time);
        }

        private static long AllThreads() => GC.GetTotalAllocatedBytes(precise: true);

        /// <summary>The process-wide counter has been seen to go backwards under Server GC; such runs measured nothing.</summary>
        public long[] ValidAllocated() => _allocated.Any(b => b < 0) ? [] : [.. _allocated];
    }
}
