using BenchmarkDotNet.Attributes;
using Net.Zmq.Interop;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// What the binding adds to one libzmq call: a 64-byte frame sent and received on an inproc PAIR in one thread (no
/// I/O thread, no network), through Net.Zmq's <see cref="Socket"/> and through the bare P/Invoke declarations with
/// no checks, no call scope and no errno handling. The difference per operation is the call path's own cost.
/// <code>dotnet benchmarks/Net.Zmq.Benchmarks/bin/Release/net10.0/Net.Zmq.Benchmarks.dll --filter *CallOverhead*</code>
/// BenchmarkDotNet runs the rows one after the other, and on a busy machine they drift apart by more than the few
/// nanoseconds in question; <see cref="RunInterleaved"/> (<c>Net.Zmq.Benchmarks.dll call-overhead</c>) alternates
/// them in short rounds and reports, round by round, how much each costs beyond the bare P/Invoke.
/// </summary>
[MemoryDiagnoser]
public unsafe class CallOverheadBenchmarks : InprocPairBenchmarks
{
    [Benchmark(Baseline = true, OperationsPerInvoke = Frames, Description = "bare P/Invoke send + recv")]
    public int Bare()
    {
        int total = 0;
        fixed (byte* payload = _payload)
        fixed (byte* buffer = _buffer)
        {
            for (int i = 0; i < Frames; i++)
            {
                LibZmq.Send(_bareSender, payload, Size, 0);
                total += LibZmq.Recv(_bareReceiver, buffer, Size, 0);
            }
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "Send(span) + Recv(span)")]
    public int Span()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            total += _receiver.Recv(_buffer);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "Send(span) + Recv(Message)")]
    public int ReusedMessage()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            _receiver.Recv(_message);
            total += _message.Size;
        }

        return total;
    }

    /// <summary>
    /// Runs the three rows in alternation for <paramref name="rounds"/> rounds and prints, per row, the median
    /// difference from the bare P/Invoke in ns per send + receive, with its middle half.
    /// </summary>
    public static int RunInterleaved(int rounds = 2001, int loopsPerRound = 5)
    {
        var benchmarks = new CallOverheadBenchmarks();
        benchmarks.Setup();
        try
        {
            double[][] nanoseconds = AlternatingRounds.Measure([benchmarks.Bare, benchmarks.Span, benchmarks.ReusedMessage], Frames, rounds, loopsPerRound);
            AlternatingRounds.Print(["bare P/Invoke send + recv", "Send(span) + Recv(span)", "Send(span) + Recv(Message)"], nanoseconds, withDifference: true);
            return 0;
        }
        finally
        {
            benchmarks.Cleanup();
        }
    }
}
