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
public unsafe class CallOverheadBenchmarks
{
    private const int Frames = 1000;
    private const int Size = 64;

    private readonly byte[] _payload = new byte[Size];
    private readonly byte[] _buffer = new byte[Size];
    private Context _context = null!;
    private Socket _sender = null!;
    private Socket _receiver = null!;
    private Message _message = null!;
    private nint _bareContext;
    private nint _bareSender;
    private nint _bareReceiver;

    [GlobalSetup]
    public void Setup()
    {
        _context = new Context { DefaultLinger = TimeSpan.Zero };
        _receiver = new Socket(_context, SocketType.Pair);
        _receiver.Bind("inproc://call-overhead");
        _sender = new Socket(_context, SocketType.Pair);
        _sender.Connect("inproc://call-overhead");
        _message = new Message();

        _bareContext = LibZmq.CtxNew();
        _bareReceiver = LibZmq.Socket(_bareContext, (int)SocketType.Pair);
        _bareSender = LibZmq.Socket(_bareContext, (int)SocketType.Pair);
        fixed (byte* endpoint = "inproc://call-overhead-bare\0"u8)
        {
            LibZmq.Bind(_bareReceiver, endpoint);
            LibZmq.Connect(_bareSender, endpoint);
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _message.Dispose();
        _sender.Dispose();
        _receiver.Dispose();
        _context.Dispose();
        LibZmq.Close(_bareSender);
        LibZmq.Close(_bareReceiver);
        LibZmq.CtxTerm(_bareContext);
    }

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
