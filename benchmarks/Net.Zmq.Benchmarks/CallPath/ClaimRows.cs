using System.Diagnostics;
using System.Globalization;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The three rows that decide how a socket call claims its socket, in one process, for comparing two builds of the
/// library (<c>benchmarks/compare-builds.sh</c> runs this verb, <c>claim-rows</c>, alternately in each): a
/// single-thread inproc send + receive per call (the bare P/Invoke beside it as the floor), a 64 B ROUTER-to-ROUTER
/// span loop over tcp, and a blocking DEALER-to-ROUTER round trip over tcp. No loop here is marked
/// <c>AggressiveOptimization</c>: the JIT tiers them up as it does a user's code, with dynamic PGO when it is on.
/// Prints <c>row NAME VALUE</c> lines, each value the median of the process's runs.
/// </summary>
internal static class ClaimRows
{
    public const string Verb = "claim-rows";

    private const int RouterMessages = 100_000;
    private const int RoundTrips = 10_000;
    private const int Runs = 7;

    public static int Run()
    {
        var calls = new CallOverheadBenchmarks();
        calls.Setup();
        try
        {
            double[][] nanoseconds = AlternatingRounds.Measure([calls.Bare, calls.Span, calls.ReusedMessage], 1000, rounds: 401, loopsPerRound: 5);
            Print("call.bare_ns", Median(nanoseconds[0]));
            Print("call.span_ns", Median(nanoseconds[1]));
            Print("call.message_ns", Median(nanoseconds[2]));

            // What the binding adds, round by round: the floor and the rows ran in the same rounds, in turn.
            Print("call.span_over_bare_ns", Median(Difference(nanoseconds[1], nanoseconds[0])));
            Print("call.message_over_bare_ns", Median(Difference(nanoseconds[2], nanoseconds[0])));
        }
        finally
        {
            calls.Cleanup();
        }

        using (var pair = new ZmqRouterPair())
        {
            var rates = new double[Runs];
            RouterSpan(pair, RouterMessages); // tier-up
            RouterSpan(pair, RouterMessages);
            for (int i = 0; i < Runs; i++)
            {
                rates[i] = RouterSpan(pair, RouterMessages);
            }

            Print("router64.span_msg_per_s", Median(rates));
        }

        Print("roundtrip.blocking_p50_us", BlockingRoundTripP50());
        return 0;
    }

    /// <summary>Messages per second of one run: a thread sends routing id + 64 B, this one receives both frames into buffers.</summary>
    private static double RouterSpan(ZmqRouterPair pair, int messages)
    {
        var sender = new Thread(() =>
        {
            byte[] payload = new byte[64];
            for (int i = 0; i < messages; i++)
            {
                pair.Sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
                pair.Sender.Send(payload);
            }
        });
        byte[] id = new byte[16];
        byte[] buffer = new byte[64];
        long start = Stopwatch.GetTimestamp();
        sender.Start();
        for (int i = 0; i < messages; i++)
        {
            pair.Receiver.Recv(id);
            pair.Receiver.Recv(buffer);
        }

        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        sender.Join();
        return messages / seconds;
    }

    /// <summary>The median of the runs' median round trip, in microseconds: DEALER Send + Recv of 64 B against a ROUTER echo thread.</summary>
    private static double BlockingRoundTripP50()
    {
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        using var server = new Socket(context, SocketType.Router);
        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.LastEndpoint;
        var echo = new Thread(() =>
        {
            byte[] id = new byte[256];
            byte[] data = new byte[64];
            try
            {
                while (true)
                {
                    int idSize = server.Recv(id);
                    int size = server.Recv(data);
                    server.Send(id.AsSpan(0, idSize), SendFlags.SendMore);
                    server.Send(data.AsSpan(0, size));
                }
            }
            catch (ContextTerminatedException)
            {
            }
        }) { IsBackground = true };
        echo.Start();

        var p50s = new double[Runs];
        using (var client = new Socket(context, SocketType.Dealer))
        {
            client.Connect(endpoint);
            byte[] payload = new byte[64];
            byte[] reply = new byte[64];
            var trips = new double[RoundTrips];
            for (int run = -2; run < Runs; run++)
            {
                for (int i = 0; i < RoundTrips; i++)
                {
                    long start = Stopwatch.GetTimestamp();
                    client.Send(payload);
                    client.Recv(reply);
                    trips[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
                }

                if (run >= 0)
                {
                    p50s[run] = Median(trips);
                }
            }
        }

        context.Shutdown();
        echo.Join();
        return Median(p50s);
    }

    private static double[] Difference(double[] row, double[] floor) => [.. row.Select((value, round) => value - floor[round])];

    private static double Median(double[] values)
    {
        double[] sorted = (double[])values.Clone();
        Array.Sort(sorted);
        return sorted[sorted.Length / 2];
    }

    private static void Print(string name, double value) =>
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"row {name} {value:F2}"));
}
