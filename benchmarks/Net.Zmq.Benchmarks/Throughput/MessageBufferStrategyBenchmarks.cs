using System.Buffers;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Where a message's bytes live, on both sides of 10,000 ROUTER-to-ROUTER messages (receiving with a blocking
/// receive per frame): a new array per message, an array rented from ArrayPool, a new <see cref="Message"/> per
/// message, a zero-copy <see cref="Message"/> over native memory, and the two reuse paths (one buffer as a span; one
/// received-into <see cref="Message"/>).
/// </summary>
[MemoryDiagnoser]
public unsafe class MessageBufferStrategyBenchmarks
{
    private static readonly Action<nint> s_freeNative = static data => NativeMemory.Free((void*)data);

    private ZmqRouterPair _pair = null!;
    private SenderThread _sender = null!;
    private byte[] _payload = null!;
    private byte[] _buffer = null!;
    private Message _reusedMessage = null!;
    private readonly byte[] _routingId = new byte[16];

    [ParamsSource(nameof(Sizes))]
    public int MessageSize { get; set; }

    public static IEnumerable<int> Sizes => Suite.BufferStrategySizes;

    [GlobalSetup(Target = nameof(ByteArray))]
    public void SetupByteArray() => Setup(SendByteArray);

    [GlobalSetup(Target = nameof(ArrayPool))]
    public void SetupArrayPool() => Setup(SendArrayPool);

    [GlobalSetup(Target = nameof(Message))]
    public void SetupMessage() => Setup(SendMessage);

    [GlobalSetup(Target = nameof(MessageZeroCopy))]
    public void SetupZeroCopy() => Setup(SendZeroCopy);

    [GlobalSetup(Targets = [nameof(Span), nameof(ReusedMessage)])]
    public void SetupSpan() => Setup(SendSpan);

    [GlobalCleanup]
    public void Cleanup()
    {
        _sender.Dispose();
        _reusedMessage.Dispose();
        _pair.Dispose();
    }

    /// <summary>A new byte[] per message on both sides.</summary>
    [Benchmark(Baseline = true)]
    public void ByteArray()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            receiver.Recv(_routingId);
            var buffer = new byte[MessageSize];
            receiver.Recv(buffer);
        }

        _sender.WaitDone();
    }

    /// <summary>An array rented from ArrayPool&lt;byte&gt;.Shared per message on both sides.</summary>
    [Benchmark]
    public void ArrayPool()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            receiver.Recv(_routingId);
            byte[] buffer = ArrayPool<byte>.Shared.Rent(MessageSize);
            receiver.Recv(buffer.AsSpan(0, MessageSize));
            ArrayPool<byte>.Shared.Return(buffer);
        }

        _sender.WaitDone();
    }

    /// <summary>A new Message per message on both sides (the Message strategy of the first Net.Zmq's benchmark report).</summary>
    [Benchmark]
    public void Message() => ReceiveIntoNewMessages();

    /// <summary>The sender hands libzmq native memory it frees in a callback; the receiver takes a new Message per message.</summary>
    [Benchmark]
    public void MessageZeroCopy() => ReceiveIntoNewMessages();

    /// <summary>One reused buffer on both sides, sent and received as spans.</summary>
    [Benchmark]
    public void Span()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            receiver.Recv(_routingId);
            receiver.Recv(_buffer);
        }

        _sender.WaitDone();
    }

    /// <summary>The sender sends one reused buffer as a span; the receiver reuses one Message for every frame.</summary>
    [Benchmark]
    public void ReusedMessage()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            receiver.Recv(_routingId);
            receiver.Recv(_reusedMessage);
        }

        _sender.WaitDone();
    }

    private void ReceiveIntoNewMessages()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            receiver.Recv(_routingId);
            using var message = new Message();
            receiver.Recv(message);
        }

        _sender.WaitDone();
    }

    private void Setup(Action sendRound)
    {
        _pair = new ZmqRouterPair();
        _payload = new byte[MessageSize];
        _payload.AsSpan().Fill((byte)'x');
        _buffer = new byte[MessageSize];
        _reusedMessage = new Message();
        _sender = new SenderThread(sendRound);
    }

    private void SendByteArray()
    {
        Socket sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            var data = new byte[MessageSize];
            data[0] = (byte)n;
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(data);
        }
    }

    private void SendArrayPool()
    {
        Socket sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            byte[] data = ArrayPool<byte>.Shared.Rent(MessageSize);
            data[0] = (byte)n;
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(data.AsSpan(0, MessageSize));
            ArrayPool<byte>.Shared.Return(data);
        }
    }

    private void SendMessage()
    {
        Socket sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            using var message = new Message(MessageSize);
            message.Data[0] = (byte)n;
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(message);
        }
    }

    private void SendZeroCopy()
    {
        Socket sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            byte* data = (byte*)NativeMemory.Alloc((nuint)MessageSize);
            data[0] = (byte)n;
            using var message = new Message((nint)data, MessageSize, s_freeNative);
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(message);
        }
    }

    private void SendSpan()
    {
        Socket sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(_payload);
        }
    }
}
