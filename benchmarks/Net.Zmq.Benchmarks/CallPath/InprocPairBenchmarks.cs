using BenchmarkDotNet.Attributes;
using Net.Zmq.Interop;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The fixture of the call-path benchmarks: an inproc PAIR through Net.Zmq's <see cref="Socket"/> and one through the
/// bare P/Invoke declarations, a 64-byte payload and buffer, and a reused <see cref="Message"/>. One thread sends and
/// receives, so no I/O thread and no network take part.
/// </summary>
public abstract unsafe class InprocPairBenchmarks
{
    protected const int Frames = 1000;
    protected const int Size = 64;

    protected readonly byte[] _payload = new byte[Size];
    protected readonly byte[] _buffer = new byte[Size];
    protected Context _context = null!;
    protected Socket _sender = null!;
    protected Socket _receiver = null!;
    protected Message _message = null!;
    protected nint _bareContext;
    protected nint _bareSender;
    protected nint _bareReceiver;

    [GlobalSetup]
    public void Setup()
    {
        string endpoint = "inproc://" + GetType().Name;
        _context = new Context { DefaultLinger = TimeSpan.Zero };
        _receiver = new Socket(_context, SocketType.Pair);
        _receiver.Bind(endpoint);
        _sender = new Socket(_context, SocketType.Pair);
        _sender.Connect(endpoint);
        _message = new Message();

        _bareContext = LibZmq.CtxNew();
        _bareReceiver = LibZmq.Socket(_bareContext, (int)SocketType.Pair);
        _bareSender = LibZmq.Socket(_bareContext, (int)SocketType.Pair);
        fixed (byte* bare = System.Text.Encoding.ASCII.GetBytes(endpoint + "-bare\0"))
        {
            LibZmq.Bind(_bareReceiver, bare);
            LibZmq.Connect(_bareSender, bare);
        }
    }

    [GlobalCleanup]
    public virtual void Cleanup()
    {
        _message.Dispose();
        _sender.Dispose();
        _receiver.Dispose();
        _context.Dispose();
        LibZmq.Close(_bareSender);
        LibZmq.Close(_bareReceiver);
        LibZmq.CtxTerm(_bareContext);
    }
}
