using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Async against blocking throughput, PUSH to PULL over tcp://127.0.0.1 (default HWM, so a sender that gets ahead
/// waits): a run sends one-frame messages from one side and receives them on the other, either with a sender thread
/// calling <c>Send(span)</c> and a receiving thread calling <c>Recv(span)</c>, or with a loop of
/// <c>await SendAsync(ReadOnlyMemory&lt;byte&gt;)</c> and an <c>await foreach</c> over <c>RecvAllAsync()</c>.
/// Each way has its own socket pair, so the blocking sockets never take the async path's locks. The async methods
/// use the pooling builder, so the harness allocates nothing per run and the allocation column is the library's;
/// the blocking loops are compiled fully optimised at once.
/// </summary>
internal sealed class PushPullThroughput : IDisposable
{
    private readonly Context _context = new() { DefaultLinger = TimeSpan.Zero };
    private readonly Socket _push, _pull, _asyncPush, _asyncPull;
    private readonly SenderThread _sender;
    private readonly byte[] _payload;
    private readonly byte[] _buffer;
    private int _size;
    private int _messages;

    private PushPullThroughput(int maxSize)
    {
        _payload = new byte[maxSize];
        _buffer = new byte[maxSize];
        (_push, _pull) = Connect();
        (_asyncPush, _asyncPull) = Connect();
        _sender = new SenderThread(Send);
    }

    /// <summary>The async row: at each size, blocking and async runs in alternation.</summary>
    public static List<PairedSeries> Measure()
    {
        using var runner = new PushPullThroughput(Suite.AsyncThroughputSizes.Max());
        return Task.Run(async () =>
        {
            var results = new List<PairedSeries>();
            foreach (int size in Suite.AsyncThroughputSizes)
            {
                int messages = Suite.InterleavedMessages(size);
                var blocking = new Interleaving.Series("blocking", () => new(runner.RunBlocking(size, messages)));
                var async = new Interleaving.Series("async", () => runner.RunAsync(size, messages));
                List<PairedSeries> measured = await Interleaving.MeasureAsync(
                    blocking, measureReference: true, [async], size, messages).ConfigureAwait(false);
                PairedSeries s = measured[0];
                Console.WriteLine($"    {Units.Size(size)}: blocking {Units.Rate(s.ReferenceRate)} msg/s, async {Units.Rate(s.SeriesRate)} msg/s, " +
                                  $"ratio {Units.Number(s.MedianRatio, "F3")} ({Units.Number(s.Ratios.Min(), "F3")}–{Units.Number(s.Ratios.Max(), "F3")})");
                results.Add(s);
            }

            return results;
        }).GetAwaiter().GetResult();
    }

    public void Dispose()
    {
        _sender.Dispose();
        foreach (Socket socket in new[] { _push, _pull, _asyncPush, _asyncPull })
        {
            socket.Dispose();
        }

        _context.Dispose();
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private double RunBlocking(int size, int messages)
    {
        _size = size;
        _messages = messages;
        long started = _sender.StartTimed();
        Span<byte> buffer = _buffer.AsSpan(0, size);
        for (int i = 0; i < messages; i++)
        {
            _pull.Recv(buffer);
        }

        return _sender.FinishTimed(started);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<double> RunAsync(int size, int messages)
    {
        long started = Stopwatch.GetTimestamp();
        ValueTask receiving = ReceiveAsync(size, messages);
        for (int i = 0; i < messages; i++)
        {
            await _asyncPush.SendAsync(_payload.AsMemory(0, size)).ConfigureAwait(false);
        }

        await receiving.ConfigureAwait(false);
        return Interleaving.ElapsedNs(started);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask ReceiveAsync(int size, int messages)
    {
        int received = 0;
        long bytes = 0;
        await foreach (Message message in _asyncPull.RecvAllAsync().ConfigureAwait(false))
        {
            bytes += message.Size;
            if (++received == messages)
            {
                break;
            }
        }

        if (bytes != (long)size * messages)
        {
            throw new InvalidOperationException($"Received {received} messages, {bytes} bytes; expected {messages} of {size} bytes.");
        }
    }

    private (Socket Push, Socket Pull) Connect()
    {
        var pull = new Socket(_context, SocketType.Pull);
        var push = new Socket(_context, SocketType.Push);
        pull.Bind("tcp://127.0.0.1:*");
        push.Connect(pull.LastEndpoint);
        // A first message through proves the connection is up before any run is timed.
        push.Send("ready"u8);
        pull.Recv(_buffer);
        return (push, pull);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void Send()
    {
        ReadOnlySpan<byte> payload = _payload.AsSpan(0, _size);
        for (int i = 0; i < _messages; i++)
        {
            _push.Send(payload);
        }
    }
}
