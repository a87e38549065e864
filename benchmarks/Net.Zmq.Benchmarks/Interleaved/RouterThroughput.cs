using System.Runtime.CompilerServices;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Net.Zmq's side of the interleaved ROUTER-to-ROUTER runs, shaped like the C program's: one <see cref="ZmqRouterPair"/>
/// (HWM 0, linger 0) and one sender thread kept for every run; the sender sends routing id + payload with
/// <c>Send(ReadOnlySpan&lt;byte&gt;)</c>, and the receiving thread takes both frames into reused buffers
/// (<see cref="RunSpan"/>) or the payload into one reused <see cref="Message"/> (<see cref="RunMessage"/>).
/// A run is timed from the sender's start signal to the last receive, as in the C program. The loops are compiled
/// fully optimised at once, so no run measures the harness's own code before it tiers up.
/// </summary>
internal sealed class RouterThroughput : IDisposable
{
    private readonly ZmqRouterPair _pair = new();
    private readonly SenderThread _sender;
    private readonly byte[] _payload;
    private readonly byte[] _buffer;
    private readonly byte[] _routingId = new byte[16];
    private readonly Message _message = new();
    private int _size;
    private int _messages;

    public RouterThroughput(int maxSize)
    {
        _payload = new byte[maxSize];
        _buffer = new byte[maxSize];
        Array.Fill(_payload, (byte)'x');
        _sender = new SenderThread(Send);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    public double RunSpan(int size, int messages)
    {
        long started = Begin(size, messages);
        Socket receiver = _pair.Receiver;
        Span<byte> buffer = _buffer.AsSpan(0, size);
        for (int i = 0; i < messages; i++)
        {
            receiver.Recv(_routingId);
            receiver.Recv(buffer);
        }

        return _sender.FinishTimed(started);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    public double RunMessage(int size, int messages)
    {
        long started = Begin(size, messages);
        Socket receiver = _pair.Receiver;
        for (int i = 0; i < messages; i++)
        {
            receiver.Recv(_routingId);
            receiver.Recv(_message);
        }

        double time = _sender.FinishTimed(started);
        // The last payload would otherwise stay allocated until this series runs again, and change the heap the next
        // run of another series starts with.
        _message.Rebuild();
        return time;
    }

    /// <summary>
    /// Managed bytes allocated so far by the threads that make the runs' calls: the calling thread (call it on the
    /// thread that runs the receives) and the sender thread.
    /// </summary>
    public long AllocatedByCallers() => GC.GetAllocatedBytesForCurrentThread() + _sender.AllocatedBytes;

    public void Dispose()
    {
        _sender.Dispose();
        _message.Dispose();
        _pair.Dispose();
    }

    /// <summary>Sets the round's size and count, and starts the sender; returns the start time.</summary>
    private long Begin(int size, int messages)
    {
        _size = size;
        _messages = messages;
        return _sender.StartTimed();
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    private void Send()
    {
        Socket sender = _pair.Sender;
        ReadOnlySpan<byte> payload = _payload.AsSpan(0, _size);
        for (int i = 0; i < _messages; i++)
        {
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(payload);
        }
    }
}
