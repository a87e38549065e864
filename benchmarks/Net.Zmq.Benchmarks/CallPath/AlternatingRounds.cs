using System.Diagnostics;
using System.Globalization;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Times single-thread loops in alternation, so that the machine's drift, which on a busy machine is larger than the
/// nanoseconds in question, falls on every variant alike: each round runs every variant once (the order turned by one
/// place each round), and a variant is compared with the first one round by round.
/// </summary>
internal static class AlternatingRounds
{
    /// <summary>
    /// Warms every variant up, then runs <paramref name="rounds"/> rounds; a variant's run in a round is
    /// <paramref name="loopsPerRound"/> calls of it. Returns the nanoseconds per operation of each variant in each round
    /// (<c>[variant][round]</c>), a call being <paramref name="operationsPerCall"/> operations.
    /// </summary>
    public static double[][] Measure(IReadOnlyList<Func<int>> variants, int operationsPerCall, int rounds, int loopsPerRound)
    {
        var nanoseconds = new double[variants.Count][];
        for (int v = 0; v < variants.Count; v++)
        {
            nanoseconds[v] = new double[rounds];
            for (int warm = 0; warm < loopsPerRound * 5; warm++)
            {
                variants[v]();
            }
        }

        for (int round = 0; round < rounds; round++)
        {
            for (int k = 0; k < variants.Count; k++)
            {
                int v = (round + k) % variants.Count;
                long start = Stopwatch.GetTimestamp();
                for (int loop = 0; loop < loopsPerRound; loop++)
                {
                    variants[v]();
                }

                nanoseconds[v][round] = Stopwatch.GetElapsedTime(start).TotalNanoseconds / (loopsPerRound * (double)operationsPerCall);
            }
        }

        return nanoseconds;
    }

    /// <summary>
    /// Prints a line per variant: its fastest and median ns per operation, and the median (with the middle half) of its
    /// round-by-round ratio to variant 0 and, when <paramref name="withDifference"/>, of its difference from variant 0
    /// in ns per operation.
    /// </summary>
    public static void Print(IReadOnlyList<string> names, double[][] nanoseconds, bool withDifference)
    {
        int n = nanoseconds[0].Length;
        for (int v = 0; v < names.Count; v++)
        {
            double[] own = nanoseconds[v];
            double[] sorted = [.. own.Order()];
            double[] ratios = [.. own.Select((ns, round) => ns / nanoseconds[0][round]).Order()];
            string line = string.Create(CultureInfo.InvariantCulture,
                $"{names[v],-28} min {sorted[0],6:F1} ns/op, median {sorted[n / 2],6:F1} ns/op   ratio to the first: median {ratios[n / 2]:F4}, middle half {ratios[n / 4]:F4}–{ratios[n * 3 / 4]:F4}");
            if (withDifference)
            {
                double[] differences = [.. own.Select((ns, round) => ns - nanoseconds[0][round]).Order()];
                line += string.Create(CultureInfo.InvariantCulture,
                    $"   difference: median {differences[n / 2]:F1} ns/op, middle half {differences[n / 4]:F1}–{differences[n * 3 / 4]:F1}");
            }

            Console.WriteLine(line);
        }
    }
}
