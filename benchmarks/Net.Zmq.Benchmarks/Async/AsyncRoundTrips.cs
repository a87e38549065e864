using System.Runtime.CompilerServices;
using NetMQ;
using NetMQ.Sockets;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// The async round trip: a DEALER client sends 64 bytes to a ROUTER echo server and waits for the reply — with
/// Net.Zmq's blocking calls, with Net.Zmq's <c>SendAsync</c>/<c>RecvAsync</c> (by default, and with the reactor's inline
/// continuations switch on), and with NetMQ's <c>ReceiveFrameBytesAsync</c> (NetMQ has no async
/// send; its async receive needs a <see cref="NetMQRuntime"/>). The server is the same for all: Net.Zmq with a blocking
/// receive on a dedicated thread, so the rows differ only in the client. The Net.Zmq clients and, when given, the
/// native C program's DEALER/ROUTER echo (client and echo thread in C, the same shape as the sync client and this
/// server) take turns: <see cref="Suite.AsyncRoundTripPairs"/> pairs of <see cref="Suite.RoundTripSamples"/> round
/// trips each, the order turning by one place from pair to pair, each run after <see cref="Suite.RoundTripIdleGap"/>
/// of idleness, so each ratio compares runs taken seconds apart. NetMQ runs once, after them. The measured lambdas
/// use the pooling builder, so the harness's own state machines are not counted as the libraries' allocations.
/// </summary>
internal static class AsyncRoundTrips
{
    public const string Scenario = "Async round trip";
    public const int Size = 64;

    public static AsyncRoundTripResult Measure(NativeBaseline? native)
    {
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        using var server = new Socket(context, SocketType.Router);
        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.LastEndpoint;
        var echo = new Thread(() => Echo(server)) { IsBackground = true, Name = "echo server" };
        echo.Start();

        var sync = new List<LatencyResult>();
        var async = new List<LatencyResult>();
        var asyncInline = new List<LatencyResult>();
        var nativeRuns = new List<LatencyResult>();
        byte[] payload = new byte[Size];
        byte[] reply = new byte[Size];
        // Two clients: once a socket has been used asynchronously its blocking calls take the async path's lock, so
        // the sync runs get a socket of their own.
        using (var client = new Socket(context, SocketType.Dealer))
        using (var asyncClient = new Socket(context, SocketType.Dealer))
        {
            client.Connect(endpoint);
            asyncClient.Connect(endpoint);
            List<Action> runs =
            [
                () => sync.Add(RoundTripRunner.MeasureAsync(Scenario, "Net.Zmq sync", Size, () =>
                {
                    client.Send(payload);
                    client.Recv(reply);
                    return ValueTask.CompletedTask;
                }, rounds: 1).GetAwaiter().GetResult()),
                () => async.Add(MeasureAsyncClient(asyncClient, payload, reply, "Net.Zmq async", inlineContinuations: false)),
                () => asyncInline.Add(MeasureAsyncClient(asyncClient, payload, reply, "Net.Zmq async, inline continuations", inlineContinuations: true)),
            ];
            if (native is not null)
            {
                runs.Add(() => nativeRuns.Add(native.RoundTrip(Scenario, "dealer-router", Size, rounds: 1)));
            }

            for (int pair = 0; pair < Suite.AsyncRoundTripPairs; pair++)
            {
                for (int i = 0; i < runs.Count; i++)
                {
                    Thread.Sleep(Suite.RoundTripIdleGap);
                    runs[(i + pair) % runs.Count]();
                }

                Console.WriteLine($"    pair {pair + 1}: sync p50 {Units.Duration(sync[^1].P50)} p99 {Units.Duration(sync[^1].P99)}, " +
                                  $"async p50 {Units.Duration(async[^1].P50)} p99 {Units.Duration(async[^1].P99)}, " +
                                  $"async inline p50 {Units.Duration(asyncInline[^1].P50)} p99 {Units.Duration(asyncInline[^1].P99)}" +
                                  (native is null ? "" : $", native C p50 {Units.Duration(nativeRuns[^1].P50)} p99 {Units.Duration(nativeRuns[^1].P99)}"));
            }
        }

        LatencyResult netMq;
        using (var netMqClient = new DealerSocket())
        using (var runtime = new NetMQRuntime())
        {
            netMqClient.Options.Linger = TimeSpan.Zero;
            netMqClient.Connect(endpoint);
            Task<LatencyResult> measuring = RoundTripRunner.MeasureAsync(Scenario, "NetMQ async", Size, [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))] async ValueTask () =>
            {
                netMqClient.SendFrame(payload);
                await netMqClient.ReceiveFrameBytesAsync();
            });
            runtime.Run(measuring);
            netMq = measuring.Result;
        }

        NetMQConfig.Cleanup(block: false);
        context.Shutdown();
        echo.Join();
        return new AsyncRoundTripResult(sync, async, asyncInline, netMq, nativeRuns);
    }

    /// <summary>One run of the async client, with the reactor's inline continuations switch set as asked for it.</summary>
    private static LatencyResult MeasureAsyncClient(Socket client, byte[] payload, byte[] reply, string name, bool inlineContinuations)
    {
        using var scope = new InlineContinuationsScope(inlineContinuations);
        return Task.Run(() => RoundTripRunner.MeasureAsync(Scenario, name, Size, [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))] async ValueTask () =>
        {
            await client.SendAsync(payload.AsMemory()).ConfigureAwait(false);
            await client.RecvAsync(reply.AsMemory()).ConfigureAwait(false);
        }, rounds: 1)).GetAwaiter().GetResult();
    }

    private static void Echo(Socket server)
    {
        byte[] id = new byte[256];
        byte[] buffer = new byte[Size];
        try
        {
            while (true)
            {
                int idSize = server.Recv(id);
                int size = server.Recv(buffer);
                server.Send(id.AsSpan(0, idSize), SendFlags.SendMore);
                server.Send(buffer.AsSpan(0, size));
            }
        }
        catch (ContextTerminatedException)
        {
        }
    }
}
