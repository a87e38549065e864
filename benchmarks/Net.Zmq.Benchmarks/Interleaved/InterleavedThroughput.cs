namespace Net.Zmq.Benchmarks;

/// <summary>
/// The suite's first phase: ROUTER-to-ROUTER throughput of native C (the <c>serve</c> process) and of Net.Zmq's
/// span and reused-Message paths, run in alternation at each size, so that each Net.Zmq/native ratio compares runs
/// taken seconds apart instead of phases taken minutes apart.
/// </summary>
internal static class InterleavedThroughput
{
    public static List<PairedSeries> Measure(string nativeExecutable)
    {
        var results = new List<PairedSeries>();
        using var native = new NativeServer(nativeExecutable);
        using var zmq = new RouterThroughput(Suite.InterleavedSizes.Max());
        foreach (int size in Suite.InterleavedSizes)
        {
            int messages = Suite.InterleavedMessages(size);
            var reference = new Interleaving.Series(NativeBaseline.Name, () => new(native.Throughput(size, messages)));
            Interleaving.Series[] series =
            [
                new("Span", () => new(zmq.RunSpan(size, messages))),
                new("Message", () => new(zmq.RunMessage(size, messages))),
            ];
            List<PairedSeries> measured = Interleaving.MeasureAsync(
                reference, measureReference: false, series, size, messages).GetAwaiter().GetResult();
            foreach (PairedSeries s in measured)
            {
                Console.WriteLine($"    {Units.Size(size)} {s.Series}: native {Units.Rate(s.ReferenceRate)} msg/s, Net.Zmq {Units.Rate(s.SeriesRate)} msg/s, " +
                                  $"ratio {Units.Number(s.MedianRatio, "F3")} ({Units.Number(s.Ratios.Min(), "F3")}–{Units.Number(s.Ratios.Max(), "F3")})");
            }

            results.AddRange(measured);
        }

        return results;
    }
}
