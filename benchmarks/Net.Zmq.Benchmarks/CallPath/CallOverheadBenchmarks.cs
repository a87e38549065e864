using BenchmarkDotNet.Attributes;
using Net.Zmq.Interop;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// What the binding adds to one libzmq call: a 64-byte frame sent and received on an inproc PAIR in one thread (no
/// I/O thread, no network), through Net.Zmq's <see cref="Socket"/> and through the bare P/Invoke declarations with
/// no checks, no call scope and no errno handling. The difference per operation is the call path's own cost.
/// <code>dotnet benchmarks/Net.Zmq.Benchmarks/bin/Release/net10.0/Net.Zmq.Benchmarks.dll --filter *CallOverhead*</code>
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
}
