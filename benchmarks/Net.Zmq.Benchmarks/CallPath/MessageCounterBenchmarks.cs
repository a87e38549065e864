using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using BenchmarkDotNet.Attributes;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// What a per-message metrics counter would cost the 64-byte call path (docs/metrics.md): the send + receive of
/// <see cref="CallOverheadBenchmarks"/>'s Span row, alone, then with one counter check per send and per receive the way
/// Net.Zmq would make it (<c>if (counter.Enabled) counter.Add(1)</c>), without and with a listener on the counter.
/// Net.Zmq has no such counter: this suite is the measurement that decided it.
/// <code>cd /tmp/bdnrun &amp;&amp; dotnet .../Net.Zmq.Benchmarks.dll --filter *MessageCounter* --inProcess</code>
/// On a busy machine BenchmarkDotNet's separate phases drift by more than the 1% in question; <see cref="RunInterleaved"/>
/// (<c>Net.Zmq.Benchmarks.dll message-counter</c>) alternates the three variants in short rounds and reports the median
/// of each round's ratio, which cancels the drift.
/// </summary>
[MemoryDiagnoser]
public class MessageCounterBenchmarks
{
    private const int Frames = 1000;
    private const int Size = 64;

    private readonly byte[] _payload = new byte[Size];
    private readonly byte[] _buffer = new byte[Size];
    private Meter _meter = null!;
    private Counter<long> _sent = null!;
    private Counter<long> _received = null!;
    private MeterListener? _listener;
    private long _observed;
    private Context _context = null!;
    private Socket _sender = null!;
    private Socket _receiver = null!;

    /// <summary>Whether a MeterListener is enabled on the two counters.</summary>
    [Params(false, true)]
    public bool Listening { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _meter = new Meter("Net.Zmq.Benchmarks.MessageCounter");
        _sent = _meter.CreateCounter<long>("sent");
        _received = _meter.CreateCounter<long>("received");
        if (Listening)
        {
            _listener = new MeterListener
            {
                InstrumentPublished = (instrument, listener) =>
                {
                    if (instrument.Meter == _meter)
                    {
                        listener.EnableMeasurementEvents(instrument);
                    }
                },
            };
            _listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref _observed, value));
            _listener.Start();
        }

        _context = new Context { DefaultLinger = TimeSpan.Zero };
        _receiver = new Socket(_context, SocketType.Pair);
        _receiver.Bind("inproc://message-counter");
        _sender = new Socket(_context, SocketType.Pair);
        _sender.Connect("inproc://message-counter");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _listener?.Dispose();
        _meter.Dispose();
        _sender.Dispose();
        _receiver.Dispose();
        _context.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Frames, Description = "Send(span) + Recv(span)")]
    public int Plain()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            total += _receiver.Recv(_buffer);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "the same, counting each send and receive")]
    public int Counted()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            if (_sent.Enabled)
            {
                _sent.Add(1);
            }

            total += _receiver.Recv(_buffer);
            if (_received.Enabled)
            {
                _received.Add(1);
            }
        }

        return total;
    }

    /// <summary>
    /// Runs the plain, counted-without-listener and counted-with-listener loops in alternation (the order rotating each
    /// round) for <paramref name="rounds"/> rounds and prints the median ratio of each counted variant to the plain one.
    /// </summary>
    public static int RunInterleaved(int rounds = 301, int loopsPerRound = 20)
    {
        var quiet = new MessageCounterBenchmarks { Listening = false };
        var listening = new MessageCounterBenchmarks { Listening = true };
        quiet.Setup();
        listening.Setup();
        try
        {
            Func<int>[] variants = [quiet.Plain, quiet.Counted, listening.Counted];
            double[][] nanoseconds = AlternatingRounds.Measure(variants, Frames, rounds, loopsPerRound);
            AlternatingRounds.Print(["Send(span) + Recv(span)", "  + counter, no listener", "  + counter, listener"], nanoseconds, withDifference: false);

            // The check alone, without the send and receive around it: CPU-only, so the fastest of many runs is its cost.
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"one counter check alone: no listener {CheckCost(quiet._sent):F2} ns, listener {CheckCost(listening._sent):F2} ns"));

            Console.WriteLine($"observed by the listener: {Interlocked.Read(ref listening._observed)} counts");
            return 0;
        }
        finally
        {
            quiet.Cleanup();
            listening.Cleanup();
        }
    }

    private static double CheckCost(Counter<long> counter)
    {
        const int Iterations = 1_000_000;
        double best = double.MaxValue;
        for (int run = 0; run < 200; run++)
        {
            long start = Stopwatch.GetTimestamp();
            for (int i = 0; i < Iterations; i++)
            {
                if (counter.Enabled)
                {
                    counter.Add(1);
                }
            }

            best = Math.Min(best, Stopwatch.GetElapsedTime(start).TotalNanoseconds / Iterations);
        }

        return best;
    }
}
