using BenchmarkDotNet.Attributes;
using Net.Zmq.Interop;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// What a safety net against a dropped <see cref="Socket.Recv()"/> costs on the 64-byte path: a
/// frame sent and received on an inproc PAIR in one thread, received as a new <see cref="Message"/> (disposed, or
/// dropped and left to its finalizer), as a new byte array, and, for reference, into a reused message or a span,
/// which allocate nothing and must stay so.
/// <code>dotnet benchmarks/Net.Zmq.Benchmarks/bin/Release/net10.0/Net.Zmq.Benchmarks.dll --filter *RecvOwnership* --inProcess</code>
/// </summary>
/// <remarks>
/// The two "frame" rows are the candidates side by side on the bare P/Invoke path, so that the only difference
/// between them is the one under test: an object holding a <c>zmq_msg_t</c> inline, without and with a finalizer.
/// </remarks>
[MemoryDiagnoser]
public unsafe class RecvOwnershipBenchmarks : InprocPairBenchmarks
{
    /// <summary>Lets the finalizers of the dropped messages run before the sockets close.</summary>
    public override void Cleanup()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        base.Cleanup();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Frames, Description = "Send(span) + Recv(span)")]
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

    [Benchmark(OperationsPerInvoke = Frames, Description = "Send(span) + Recv(reused Message)")]
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

    [Benchmark(OperationsPerInvoke = Frames, Description = "Send(span) + using Recv()")]
    public int NewMessageDisposed()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            using Message message = _receiver.Recv();
            total += message.Size;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "Send(span) + Recv(), dropped")]
    public int NewMessageDropped()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            total += _receiver.Recv().Size;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "Send(span) + RecvBytes()")]
    public int NewByteArray()
    {
        int total = 0;
        for (int i = 0; i < Frames; i++)
        {
            _sender.Send(_payload);
            total += _receiver.RecvBytes().Length;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "bare: new frame, no finalizer, disposed")]
    public int PlainFrame()
    {
        int total = 0;
        fixed (byte* payload = _payload)
        {
            for (int i = 0; i < Frames; i++)
            {
                LibZmq.Send(_bareSender, payload, Size, 0);
                using var frame = new PlainFrame();
                total += frame.Receive(_bareReceiver);
            }
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "bare: new frame with finalizer, disposed")]
    public int FinalizableFrameDisposed()
    {
        int total = 0;
        fixed (byte* payload = _payload)
        {
            for (int i = 0; i < Frames; i++)
            {
                LibZmq.Send(_bareSender, payload, Size, 0);
                using var frame = new FinalizableFrame();
                total += frame.Receive(_bareReceiver);
            }
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Frames, Description = "bare: new frame with finalizer, dropped")]
    public int FinalizableFrameDropped()
    {
        int total = 0;
        fixed (byte* payload = _payload)
        {
            for (int i = 0; i < Frames; i++)
            {
                LibZmq.Send(_bareSender, payload, Size, 0);
                total += new FinalizableFrame().Receive(_bareReceiver);
            }
        }

        return total;
    }
}

/// <summary>A <c>zmq_msg_t</c> held inline, as <see cref="Message"/> holds it, without a finalizer.</summary>
internal sealed unsafe class PlainFrame : IDisposable
{
    private ZmqMsg _msg;
    private bool _closed;

    internal PlainFrame()
    {
        fixed (ZmqMsg* msg = &_msg)
        {
            _ = LibZmq.MsgInit(msg);
        }
    }

    internal int Receive(nint socket)
    {
        fixed (ZmqMsg* msg = &_msg)
        {
            return LibZmq.MsgRecv(msg, socket, 0);
        }
    }

    public void Dispose()
    {
        if (!_closed)
        {
            _closed = true;
            fixed (ZmqMsg* msg = &_msg)
            {
                _ = LibZmq.MsgClose(msg);
            }
        }
    }
}

/// <summary>The same with a finalizer that closes it when it was dropped.</summary>
internal sealed unsafe class FinalizableFrame : IDisposable
{
    private ZmqMsg _msg;
    private bool _closed;

    internal FinalizableFrame()
    {
        fixed (ZmqMsg* msg = &_msg)
        {
            _ = LibZmq.MsgInit(msg);
        }
    }

    ~FinalizableFrame() => Close();

    internal int Receive(nint socket)
    {
        fixed (ZmqMsg* msg = &_msg)
        {
            return LibZmq.MsgRecv(msg, socket, 0);
        }
    }

    public void Dispose()
    {
        Close();
        GC.SuppressFinalize(this);
    }

    private void Close()
    {
        if (!_closed)
        {
            _closed = true;
            fixed (ZmqMsg* msg = &_msg)
            {
                _ = LibZmq.MsgClose(msg);
            }
        }
    }
}

/// <summary>
/// The safety net's own cost, without the socket calls whose noise hides it on a shared machine: creating and
/// closing an object that holds a <c>zmq_msg_t</c> inline, without and with a finalizer, and a <see cref="Message"/>.
/// <code>dotnet benchmarks/Net.Zmq.Benchmarks/bin/Release/net10.0/Net.Zmq.Benchmarks.dll --filter *MessageCreation* --inProcess</code>
/// </summary>
[MemoryDiagnoser]
public class MessageCreationBenchmarks
{
    private const int Count = 1000;

    [Benchmark(Baseline = true, OperationsPerInvoke = Count, Description = "frame without finalizer: new + Dispose")]
    public void PlainFrame()
    {
        for (int i = 0; i < Count; i++)
        {
            new PlainFrame().Dispose();
        }
    }

    [Benchmark(OperationsPerInvoke = Count, Description = "frame with finalizer: new + Dispose")]
    public void FinalizableFrame()
    {
        for (int i = 0; i < Count; i++)
        {
            new FinalizableFrame().Dispose();
        }
    }

    [Benchmark(OperationsPerInvoke = Count, Description = "frame with finalizer: new, dropped")]
    public void FinalizableFrameDropped()
    {
        for (int i = 0; i < Count; i++)
        {
            _ = new FinalizableFrame();
        }
    }

    [Benchmark(OperationsPerInvoke = Count, Description = "Message (with its finalizer): new + Dispose")]
    public void Message()
    {
        for (int i = 0; i < Count; i++)
        {
            new Message().Dispose();
        }
    }
}
