namespace Net.Zmq.Benchmarks;

/// <summary>The report's sections on the interleaved phases and the async rows.</summary>
internal sealed partial class MarkdownReport
{
    private void InterleavedSection()
    {
        if (paired.NativeThroughput.Count == 0)
        {
            return;
        }

        Line();
        Line("## Native C vs Net.Zmq, interleaved (ROUTER to ROUTER)");
        Line();
        Line("At each size the native C program (one `zmq_native_bench serve` process, kept up for the whole phase) and this .NET process take turns: after warm-ups " +
             "of each, every round runs native C before each of Net.Zmq `Span`, Net.Zmq `Message` and `P/Invoke` (native, A, native, B, native, C), the three in a new " +
             "random order each round, so every run follows a run of the other process and no series always follows the same other series; a pair is a .NET run " +
             "and the native run just before it. " +
             "All have the same shape: two ROUTERs over tcp://127.0.0.1, HWM 0, linger 0, a sender thread sending routing id + payload, " +
             "the receiving thread taking both frames, timed from the sender's start to the last receive. `Span`: `Send(ReadOnlySpan<byte>)` / " +
             "`Recv(Span<byte>)` into reused buffers; `Message`: the payload received into one reused `Message`; `P/Invoke`: no binding at all, " +
             "`zmq_send`/`zmq_recv` called through function pointers into the libzmq Net.Zmq loaded, on native buffers — the floor of a .NET process. " +
             "Ratio = .NET messages/s ÷ native messages/s of the same pair; the interval is a distribution-free confidence interval of the median ratio (its coverage in brackets); " +
             "\"resolves 3%\" says whether that interval is within ±3%. Pairs: at least the set's number, then more while an interval is wider than ±3%, " +
             $"within {Suite.InterleavedBudget.TotalSeconds:F0} s per size and {Suite.InterleavedMaxPairs} pairs. " +
             "CPU/msg: user + system time of the whole process (all threads) during a run ÷ its messages, for the median run and (in brackets) over all runs; " +
             "native C from the serve process's /proc/<pid>/stat, counted in 10 ms clock ticks, .NET from the process's own CPU usage (getrusage). " +
             "Allocated: managed bytes the run's two calling threads (sender and receiver) allocated during one .NET run; the runtime's own threads are not counted.");
        PairedTable(paired.NativeThroughput);

        if (paired.NativeThroughputNoTrim is { Count: > 0 } noTrim)
        {
            Line();
            Line("## Native C vs Net.Zmq, interleaved, with glibc's heap trimming held off in both processes");
            Line();
            Line("The same phase run again in a child process of the suite started with " +
                 $"`GLIBC_TUNABLES={InterleavedThroughput.HeapTrimHeldOff}`, which its native C process inherits: both sides run with the same " +
                 "malloc setting. libzmq allocates a message's buffer on one thread and frees it on another; by default glibc returns free memory " +
                 "at the top of a heap to the kernel once it passes a small threshold (128 KB to start with) and asks for it again on the next allocations. " +
                 "With a 256 MB trim threshold and a 64 MB top pad it keeps the memory mapped, so this table shows the throughput and CPU left when that " +
                 "cost is out of the picture. " +
                 "Sizes, pairs and columns as above.");
            PairedTable(noTrim);
        }
        else if (paired.NoTrimNote is { } note)
        {
            Line();
            Line($"Second pass with glibc's heap trimming held off: {note}.");
        }
    }

    private void PairedTable(IReadOnlyList<PairedSeries> series)
    {
        Line();
        Line("| Size | .NET series | Messages/run | Pairs | Native msg/s (median) | .NET msg/s (median) | Ratio (median) | min–max | Interval of median | Resolves 3% | Native CPU/msg | .NET CPU/msg | Allocated/run |");
        Line("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|");
        foreach (PairedSeries s in series)
        {
            (double low, double high, double coverage) = s.MedianInterval;
            Line($"| {Units.Size(s.Size)} | {s.Series} | {s.Messages:N0} | {s.Pairs} | {Units.Rate(s.ReferenceRate)} | {Units.Rate(s.SeriesRate)} | " +
                 $"{Units.Number(s.MedianRatio, "F3")} | {Units.Number(s.Ratios.Min(), "F3")}–{Units.Number(s.Ratios.Max(), "F3")} | " +
                 $"{Units.Number(low, "F3")}–{Units.Number(high, "F3")} ({coverage:P0}) | {(s.Resolves3Percent ? "yes" : "no")} | " +
                 $"{CpuPerMessage(s.ReferenceCpuPerMessage)} | {CpuPerMessage(s.SeriesCpuPerMessage)} | {Allocated(s.Allocated)} |");
        }

        Line();
        Line("Ratio of each pair, in the order run:");
        Line();
        foreach (PairedSeries s in series)
        {
            Line($"- {Units.Size(s.Size)} {s.Series}: {string.Join(" ", s.Ratios.Select(r => Units.Number(r, "F3")))}");
        }
    }

    private static string CpuPerMessage((double Median, double Mean)? perMessage) =>
        perMessage is var (median, mean) ? $"{Units.Duration(median)} ({Units.Duration(mean)})" : "-";

    private void AsyncSection()
    {
        if (paired.AsyncThroughput.Count == 0 && paired.RoundTrips is null && paired.Parked is null && paired.ManySockets is null)
        {
            return;
        }

        Line();
        Line("## Async");
        AsyncThroughputTable();
        AsyncRoundTripTables();
        if (paired.Parked is { } parked)
        {
            Line();
            string reactor = parked.ReactorCpu is { } cpu ? $"{cpu.TotalMilliseconds:F0} ms" : "not found";
            Line($"Parked receives: {parked.Receives:N0} RecvAsync calls waiting on {parked.Receives:N0} idle PULL sockets for {parked.Duration.TotalSeconds:F0} s used " +
                 $"{parked.ProcessCpu.TotalMilliseconds:F0} ms of CPU in the whole process ({parked.ProcessCpu / parked.Duration * 100:F2}% of one core) and {reactor} " +
                 $"on the reactor threads, with {parked.ThreadPoolThreads} thread-pool threads; disposing the sockets completed " +
                 $"{parked.CompletedOnDispose:N0} of them with ObjectDisposedException.");
        }

        ManySocketsTable();
    }

    private void AsyncThroughputTable()
    {
        if (paired.AsyncThroughput.Count == 0)
        {
            return;
        }

        Line();
        Line("### Async throughput, interleaved with blocking (PUSH to PULL)");
        Line();
        Line("PUSH to PULL over tcp://127.0.0.1, default HWM (1,000), one socket pair for each way. Blocking: a sender thread calling `Send(span)`, the " +
             "receiving thread calling `Recv(span)`. Async: `await SendAsync(ReadOnlyMemory<byte>)` in a loop and `await foreach` over " +
             "`RecvAllAsync()`, one enumeration per run. Runs alternate as in the interleaved table; ratio = async messages/s ÷ blocking messages/s " +
             "of the same pair. Allocated: managed bytes of all threads during a run, and the median run's bytes per message.");
        Line();
        Line("| Size | Messages/run | Pairs | Blocking msg/s (median) | Async msg/s (median) | Async/blocking (median) | min–max | Blocking allocated/run | Async allocated/run | Async allocated/message |");
        Line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (PairedSeries s in paired.AsyncThroughput)
        {
            string perMessage = s.Allocated.Length > 0 ? Units.Number(PairedSeries.Median(s.Allocated.Select(a => (double)a)) / s.Messages, "F3") + " B" : "n/a";
            Line($"| {Units.Size(s.Size)} | {s.Messages:N0} | {s.Pairs} | {Units.Rate(s.ReferenceRate)} | {Units.Rate(s.SeriesRate)} | " +
                 $"{Units.Number(s.MedianRatio, "F3")} | {Units.Number(s.Ratios.Min(), "F3")}–{Units.Number(s.Ratios.Max(), "F3")} | " +
                 $"{Allocated(s.ReferenceAllocated)} | {Allocated(s.Allocated)} | {perMessage} |");
        }
    }

    private void AsyncRoundTripTables()
    {
        if (paired.RoundTrips is not { } trips)
        {
            return;
        }

        Line();
        Line("### Async round trip, alternating with sync");
        Line();
        Line($"{AsyncRoundTrips.Scenario}: a DEALER client and a ROUTER echo server, {AsyncRoundTrips.Size} B, tcp://127.0.0.1; the server is the same " +
             "(Net.Zmq, blocking receive on its own thread) for every client. Net.Zmq sync (`Send`/`Recv` on its own socket), async " +
             "(`SendAsync`/`RecvAsync`, continuations on the thread pool) and async with inline continuations (the `Net.Zmq.Async.InlineContinuations` " +
             $"switch, the same socket) alternate: {trips.Sync.Count} pairs of {Suite.RoundTripSamples:N0} timed round trips each, after 1,000 " +
             "warm-up round trips per run; NetMQ's async client runs once after them (three rounds). CPU/round trip: the process's user + system " +
             "time over the timed round trips (server thread included) ÷ round trips. Allocated counts all threads' managed bytes per round trip; " +
             "pool threads added: how many threads the thread pool gained during the timed round trips (a thread it starts allocates its own objects)." +
             (trips.Native.Count == 0 ? "" :
                 " Each pair also runs the native C program's DEALER/ROUTER echo (its client and echo thread in C, a process of its own, 1,000 " +
                 "warm-ups, the same number of timed round trips); the order of the three turns by one place from pair to pair.") +
             $" Before each run the process idles {Suite.RoundTripIdleGap.TotalMilliseconds:F0} ms, so no run inherits how busy the CPUs were in the run before it.");
        Line();
        Line("| Pair | Client | Mean | p50 | p90 | p99 | CPU/round trip | Allocated/op | Pool threads added |");
        Line("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
        for (int i = 0; i < trips.Sync.Count; i++)
        {
            if (i < trips.Native.Count)
            {
                RoundTripRow($"{i + 1}", trips.Native[i]);
            }

            RoundTripRow($"{i + 1}", trips.Sync[i]);
            RoundTripRow($"{i + 1}", trips.Async[i]);
            RoundTripRow($"{i + 1}", trips.AsyncInline[i]);
        }

        RoundTripRow("-", trips.NetMq);
        Line();
        bool native = trips.Native.Count > 0;
        Line("| Pair | async/sync p50 | async/sync p99 | async/sync CPU per round trip | inline/sync p50 | inline/sync p99 | inline/sync CPU |" +
             (native ? " sync/native C p50 | sync/native C p99 |" : ""));
        Line("|---:|---:|---:|---:|---:|---:|---:|" + (native ? "---:|---:|" : ""));
        double[] cpu = CpuRatios(trips.Async, trips.Sync);
        double[] inlineCpu = CpuRatios(trips.AsyncInline, trips.Sync);
        for (int i = 0; i < trips.Sync.Count; i++)
        {
            Line($"| {i + 1} | {Units.Number(trips.P50Ratios[i], "F3")} | {Units.Number(trips.P99Ratios[i], "F3")} | {Units.Number(cpu[i], "F3")} | " +
                 $"{Units.Number(trips.InlineP50Ratios[i], "F3")} | {Units.Number(trips.InlineP99Ratios[i], "F3")} | {Units.Number(inlineCpu[i], "F3")} |" +
                 (native ? $" {Units.Number(trips.SyncToNativeP50Ratios[i], "F3")} | {Units.Number(trips.SyncToNativeP99Ratios[i], "F3")} |" : ""));
        }

        Line($"| median | {Units.Number(PairedSeries.Median(trips.P50Ratios), "F3")} | {Units.Number(PairedSeries.Median(trips.P99Ratios), "F3")} | " +
             $"{Units.Number(PairedSeries.Median(cpu), "F3")} | {Units.Number(PairedSeries.Median(trips.InlineP50Ratios), "F3")} | " +
             $"{Units.Number(PairedSeries.Median(trips.InlineP99Ratios), "F3")} | {Units.Number(PairedSeries.Median(inlineCpu), "F3")} |" +
             (native ? $" {Units.Number(PairedSeries.Median(trips.SyncToNativeP50Ratios), "F3")} | {Units.Number(PairedSeries.Median(trips.SyncToNativeP99Ratios), "F3")} |" : ""));
        double syncP50 = PairedSeries.Median(trips.Sync.Select(r => r.P50));
        Line();
        Line($"NetMQ async p50 against the median sync p50: {Units.Number(trips.NetMq.P50 / syncP50)}x.");
    }

    /// <summary>CPU per round trip of each run of <paramref name="series"/> ÷ that of the same pair's <paramref name="reference"/> run.</summary>
    private static double[] CpuRatios(IEnumerable<LatencyResult> series, IEnumerable<LatencyResult> reference) =>
        [.. series.Zip(reference, (a, s) => (a.CpuPerOperation ?? double.NaN) / (s.CpuPerOperation ?? double.NaN))];

    private void RoundTripRow(string pair, LatencyResult r)
    {
        string cpu = r.CpuPerOperation is { } c ? Units.Duration(c) : "n/a";
        string allocated = r.AllocatedPerOperation is { } a ? Units.Bytes(a) : "n/a";
        string threads = r.PoolThreadsAdded is { } t ? $"{t}" : "n/a";
        Line($"| {pair} | {r.Library} | {Units.Duration(r.Mean)} | {Units.Duration(r.P50)} | {Units.Duration(r.P90)} | {Units.Duration(r.P99)} | {cpu} | {allocated} | {threads} |");
    }

    private void ManySocketsTable()
    {
        if (paired.ManySockets is not { } many)
        {
            return;
        }

        Line();
        Line($"### {ManySockets.TotalSockets:N0} sockets in async use");
        Line();
        Line($"One process: {many.BusyPairs} busy PUSH→PULL pairs over inproc (default HWM, 64 B), each with a `SendAsync` loop and a " +
             $"`RecvAsync` loop, and {many.IdleSockets:N0} idle PULL sockets, in a context of their own, each with a `RecvAsync` parked that never completes " +
             $"({2 * many.BusyPairs + many.IdleSockets:N0} sockets in async use). Windows alternate: the busy pairs alone, with the idle sockets, alone, " +
             "with a new set of idle sockets, alone, then alone with the `Net.Zmq.Async.InlineContinuations` switch on, and alone again. Reactor: CPU of the \"Net.Zmq reactor\" threads together (/proc/self/task, 10 ms ticks; the " +
             "loops' code after each await runs on the thread pool, which the process share counts, but on the reactor threads in the inline window), as a share of one core and per message moved; process: user + system time of all threads as a share of one core (2 cores = 200%). \"vs neighbours\" " +
             "divides a window's messages/s by the mean of the windows on either side of it.");
        Line();
        Line("| Window | Sockets in async use | Duration | Messages/s | vs neighbours | Reactor CPU | Reactor share of one core | Reactor CPU/message | Process CPU share | Pool threads |");
        Line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        IReadOnlyList<SocketWindow> windows = many.Windows;
        for (int i = 0; i < windows.Count; i++)
        {
            SocketWindow w = windows[i];
            double neighbours = new[] { i - 1, i + 1 }.Where(j => j >= 0 && j < windows.Count).Select(j => windows[j].MessagesPerSecond).DefaultIfEmpty(double.NaN).Average();
            string reactor = w.ReactorCpu is { } r ? $"{r.TotalMilliseconds:F0} ms" : "not found";
            string share = w.ReactorShare is { } s ? $"{s:P1}" : "-";
            string perMessage = w.ReactorPerMessage is { } p ? Units.Duration(p) : "-";
            Line($"| {w.Label} | {w.Sockets:N0} | {w.Duration.TotalSeconds:F1} s | {Units.Rate(w.MessagesPerSecond)} | {Units.Number(w.MessagesPerSecond / neighbours, "F3")} | " +
                 $"{reactor} | {share} | {perMessage} | {w.ProcessShare:P0} | {w.ThreadPoolThreads} |");
        }

        Line();
        Line(many.Note ?? $"Creating the {many.IdleSockets:N0} idle sockets and parking their receives took {Milliseconds(many.IdleSetups)}; closing " +
             $"them and disposing their context (which waits for libzmq's reaper, so the next window does not pay for it) took {Milliseconds(many.IdleCloses)} " +
             $"and ended {many.IdleCompletedOnDispose:N0} of {many.IdleSockets * many.IdleSetups.Count:N0} receives with ObjectDisposedException.");
        Line($"Open-file limit (soft RLIMIT_NOFILE): {many.OpenFilesLimit:N0}. Teardown (stop the loops, close {2 * many.BusyPairs} sockets, dispose the context): " +
             $"{many.Teardown.TotalMilliseconds:F0} ms; {(many.AllLoopsEnded ? "every loop ended" : "some loop did NOT end within 10 s")}.");
    }

    private static string Milliseconds(IEnumerable<TimeSpan> times) => string.Join(" and ", times.Select(t => $"{t.TotalMilliseconds:F0} ms"));

    /// <summary>Bytes allocated per run: the one figure when every run gave it, else the median and the largest.</summary>
    private static string Allocated(long[] runs) => runs.Length == 0 ? "n/a"
        : runs.All(r => r == runs[0]) ? Units.Bytes(runs[0])
        : $"median {Units.Bytes(PairedSeries.Median(runs.Select(r => (double)r)))}, max {Units.Bytes(runs.Max())} ({runs.Count(r => r == 0)} of {runs.Length} runs 0 B)";
}
