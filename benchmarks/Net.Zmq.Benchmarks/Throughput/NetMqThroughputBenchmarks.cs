using BenchmarkDotNet.Attributes;
using NetMQ;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The ROUTER-to-ROUTER throughput pattern of <see cref="MessageBufferStrategyBenchmarks"/> with NetMQ: a sender thread
/// sends 10,000 two-frame messages from one reused array, and the receiver takes each frame into one reused Msg with a
/// blocking receive — NetMQ's allocation-free path, the counterpart of Net.Zmq's Span and ReusedMessage rows.
/// </summary>
[MemoryDiagnoser]
public class NetMqThroughputBenchmarks
{
    private NetMqRouterPair _pair = null!;
    private SenderThread _sender = null!;
    private byte[] _payload = null!;
    private Msg _msg;

    [ParamsSource(nameof(Sizes))]
    public int MessageSize { get; set; }

    public static IEnumerable<int> Sizes => Suite.LibrarySizes;

    [GlobalSetup]
    public void Setup()
    {
        _pair = new NetMqRouterPair();
        _payload = new byte[MessageSize];
        _msg.InitEmpty();
        _sender = new SenderThread(SendAll);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _sender.Dispose();
        _msg.Close();
        _pair.Dispose();
        NetMQConfig.Cleanup(block: false);
    }

    [Benchmark(Description = "NetMQ")]
    public void RouterToRouter()
    {
        _sender.Start();
        var receiver = _pair.Receiver;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            receiver.Receive(ref _msg);
            receiver.Receive(ref _msg);
        }

        _sender.WaitDone();
    }

    private void SendAll()
    {
        var sender = _pair.Sender;
        for (int n = 0; n < Suite.MessageCount; n++)
        {
            sender.SendMoreFrame(NetMqRouterPair.ReceiverId);
            sender.SendFrame(_payload);
        }
    }
}
