using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Net.Zmq.Interop;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The "P/Invoke" series of the interleaved ROUTER-to-ROUTER runs: the C program's loops written in C# against
/// <c>zmq_send</c>/<c>zmq_recv</c> called through unmanaged function pointers taken from the very libzmq Net.Zmq
/// loaded, with no Net.Zmq type on the path (no handle lease, no error policy, no spans: native buffers, raw
/// socket pointers). Same shape as <see cref="RouterThroughput"/>: its own context and ROUTER pair (HWM 0, linger 0,
/// routing ids "R" and "S"), a <see cref="SenderThread"/> kept for every run, timed from the sender's start signal to
/// the last receive. It is the floor a .NET process reaches without any binding.
/// </summary>
internal sealed unsafe class PInvokeRouterThroughput : IDisposable
{
    private const int SendMore = 2; // ZMQ_SNDMORE

    private readonly delegate* unmanaged<nint, void*, nuint, int, int> _send;
    private readonly delegate* unmanaged<nint, void*, nuint, int, int> _recv;
    private readonly delegate* unmanaged<nint, int> _close;
    private readonly delegate* unmanaged<nint, int> _contextTerm;
    private readonly delegate* unmanaged<int> _errno;
    private readonly delegate* unmanaged<int, byte*> _strerror;
    private readonly nint _context, _receiver, _sender;
    private readonly byte* _payload;
    private readonly byte* _buffer;
    private readonly byte* _routingId;
    private readonly SenderThread _thread;
    private int _size;
    private int _messages;

    public PInvokeRouterThroughput(int maxSize)
    {
        // NativeLibraryLoader.Handle is the library Net.Zmq's declarations are bound to (NETZMQ_LIBZMQ_PATH, the
        // bundled runtimes/<rid>/native copy, or the system's), so both series run the same libzmq.
        nint library = NativeLibraryLoader.Handle;
        _send = (delegate* unmanaged<nint, void*, nuint, int, int>)NativeLibrary.GetExport(library, "zmq_send");
        _recv = (delegate* unmanaged<nint, void*, nuint, int, int>)NativeLibrary.GetExport(library, "zmq_recv");
        _close = (delegate* unmanaged<nint, int>)NativeLibrary.GetExport(library, "zmq_close");
        _contextTerm = (delegate* unmanaged<nint, int>)NativeLibrary.GetExport(library, "zmq_ctx_term");
        _errno = (delegate* unmanaged<int>)NativeLibrary.GetExport(library, "zmq_errno");
        _strerror = (delegate* unmanaged<int, byte*>)NativeLibrary.GetExport(library, "zmq_strerror");
        var contextNew = (delegate* unmanaged<nint>)NativeLibrary.GetExport(library, "zmq_ctx_new");
        var socket = (delegate* unmanaged<nint, int, nint>)NativeLibrary.GetExport(library, "zmq_socket");
        var setOption = (delegate* unmanaged<nint, int, void*, nuint, int>)NativeLibrary.GetExport(library, "zmq_setsockopt");
        var getOption = (delegate* unmanaged<nint, int, void*, nuint*, int>)NativeLibrary.GetExport(library, "zmq_getsockopt");
        var bind = (delegate* unmanaged<nint, byte*, int>)NativeLibrary.GetExport(library, "zmq_bind");
        var connect = (delegate* unmanaged<nint, byte*, int>)NativeLibrary.GetExport(library, "zmq_connect");

        _payload = (byte*)NativeMemory.Alloc((nuint)maxSize);
        _buffer = (byte*)NativeMemory.Alloc((nuint)maxSize);
        _routingId = (byte*)NativeMemory.Alloc(16);
        new Span<byte>(_payload, maxSize).Fill((byte)'x');

        _context = contextNew();
        Check(_context != 0 ? 0 : -1, "zmq_ctx_new");
        _receiver = Router((byte)'R');
        _sender = Router((byte)'S');
        int one = 1;
        Check(setOption(_sender, (int)SocketOption.RouterMandatory, &one, sizeof(int)), "ZMQ_ROUTER_MANDATORY");
        byte* endpoint = stackalloc byte[256];
        nuint length = 256;
        fixed (byte* any = "tcp://127.0.0.1:*\0"u8)
        {
            Check(bind(_receiver, any), "zmq_bind");
        }

        Check(getOption(_receiver, (int)SocketOption.LastEndpoint, endpoint, &length), "ZMQ_LAST_ENDPOINT");
        Check(connect(_sender, endpoint), "zmq_connect");

        // The handshake is done when the sender can route to "R"; then one message proves the path.
        byte receiverId = (byte)'R';
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (_send(_sender, &receiverId, 1, SendMore) < 0)
        {
            if (_errno() != ZmqError.EHOSTUNREACH || DateTime.UtcNow > deadline)
            {
                Check(-1, "handshake");
            }

            Thread.Sleep(1);
        }

        Check(_send(_sender, _payload, 2, 0), "zmq_send");
        Check(_recv(_receiver, _routingId, 16, 0), "zmq_recv");
        Check(_recv(_receiver, _buffer, (nuint)maxSize, 0), "zmq_recv");
        _thread = new SenderThread(Send);

        nint Router(byte routingId)
        {
            nint s = socket(_context, (int)SocketType.Router);
            Check(s != 0 ? 0 : -1, "zmq_socket");
            int zero = 0;
            Check(setOption(s, (int)SocketOption.SendHighWatermark, &zero, sizeof(int)), "ZMQ_SNDHWM");
            Check(setOption(s, (int)SocketOption.ReceiveHighWatermark, &zero, sizeof(int)), "ZMQ_RCVHWM");
            Check(setOption(s, (int)SocketOption.Linger, &zero, sizeof(int)), "ZMQ_LINGER");
            Check(setOption(s, (int)SocketOption.RoutingId, &routingId, 1), "ZMQ_ROUTING_ID");
            return s;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    public double Run(int size, int messages)
    {
        _size = size;
        _messages = messages;
        long started = _thread.StartTimed();
        for (int i = 0; i < messages; i++)
        {
            if (_recv(_receiver, _routingId, 16, 0) < 0 || _recv(_receiver, _buffer, (nuint)size, 0) < 0)
            {
                Check(-1, "zmq_recv");
            }
        }

        return _thread.FinishTimed(started);
    }

    /// <summary>
    /// Managed bytes allocated so far by the threads that make the runs' calls: the calling thread (call it on the
    /// thread that runs the receives) and the sender thread.
    /// </summary>
    public long AllocatedByCallers() => GC.GetAllocatedBytesForCurrentThread() + _thread.AllocatedBytes;

    public void Dispose()
    {
        _thread.Dispose();
        _close(_sender);
        _close(_receiver);
        _contextTerm(_context);
        NativeMemory.Free(_payload);
        NativeMemory.Free(_buffer);
        NativeMemory.Free(_routingId);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    private void Send()
    {
        byte receiverId = (byte)'R';
        nuint size = (nuint)_size;
        for (int i = 0; i < _messages; i++)
        {
            if (_send(_sender, &receiverId, 1, SendMore) < 0 || _send(_sender, _payload, size, 0) < 0)
            {
                Check(-1, "zmq_send");
            }
        }
    }

    private void Check(int result, string what)
    {
        if (result < 0)
        {
            Fail(what);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Fail(string what)
    {
        int error = _errno();
        throw new InvalidOperationException($"{what} failed: {Marshal.PtrToStringUTF8((nint)_strerror(error))} ({error})");
    }
}
