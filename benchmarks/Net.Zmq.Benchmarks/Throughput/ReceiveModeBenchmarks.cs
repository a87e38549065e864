using BenchmarkDotNet.Attributes;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Four ways to receive 10,000 ROUTER-to-ROUTER messages while a sender thread sends them: a blocking receive per
/// frame, blocking for the first message then draining without waiting, non-blocking with a 1 ms sleep when empty,
/// and a poller wait followed by a drain. Both sides use one reused buffer (the Span path: no allocation).
/// </summary>
[MemoryDiagnoser]
public class ReceiveModeBenchmarks
{
    private ZmqRouterPair _pair = null!;
    private SenderThread _sender = null!;
    private Poller _poller = null!;
    private byte[] _payload = null!;
    private byte[] _buffer = null!;
    private readonly byte[] _routingId = new byte[16];

    [ParamsSource(nameof(Sizes))]
    public int MessageSize { get; set; }

    public static IEnumerable<int> Sizes => Suite.ReceiveModeSizes;

    [GlobalSetup]
    public void Setup()
    {
        _pair = new ZmqRouterPair();
        _payload = new byte[MessageSize];
        _buffer = new byte[MessageSize];
        _poller = new Poller(1);
        _poller.Add(_pair.Receiver, PollEvents.In);
        _sender = new SenderThread(SendAll);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _sender.Dispose();
        _poller.Dispose();
        _pair.Dispose();
    }

    [Benchmark(Baseline = true)]
    public void PureBlocking()
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

    [Benchmark]
    public void BlockingWithBatch()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        int n = 0;
        while (n < Suite.MessageCount)
        {
            receiver.Recv(_routingId);
            receiver.Recv(_buffer);
            n++;
            while (n < Suite.MessageCount && receiver.Recv(_routingId, RecvFlags.DontWait) >= 0)
            {
                receiver.Recv(_buffer);
                n++;
            }
        }

        _sender.WaitDone();
    }

    [Benchmark(Description = "NonBlocking (Sleep 1 ms)")]
    public void NonBlocking()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        int n = 0;
        while (n < Suite.MessageCount)
        {
            while (n < Suite.MessageCount && receiver.Recv(_routingId, RecvFlags.DontWait) >= 0)
            {
                receiver.Recv(_buffer);
                n++;
            }

            if (n < Suite.MessageCount)
            {
                Thread.Sleep(1);
            }
        }

        _sender.WaitDone();
    }

    [Benchmark]
    public void Poller()
    {
        _sender.Start();
        Socket receiver = _pair.Receiver;
        int n = 0;
        while (n < Suite.MessageCount)
        {
            _poller.Poll(-1);
            while (n < Suite.MessageCount && receiver.Recv(_routingId, RecvFlags.DontWait) >= 0)
            {
                receiver.Recv(_buffer);
                n++;
            }
        }

        _sender.WaitDone();
    }

    private void SendAll()
    {
        Socket sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            sender.Send(ZmqRouterPair.ReceiverId, SendFlags.SendMore);
            sender.Send(_payload);
        }
    }
}
