using System.Runtime.CompilerServices;
using NetMQ;
using NetMQ.Sockets;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Issue 5's round trip: a DEALER client sends 64 bytes to a ROUTER echo server and waits for the reply — with
/// Net.Zmq's blocking calls, with Net.Zmq's <c>SendAsync</c>/<c>RecvAsync</c>, and with NetMQ's
/// <c>ReceiveFrameBytesAsync</c> (NetMQ has no async send; its async receive needs a <see cref="NetMQRuntime"/>). The
/// server is the same for all three: Net.Zmq with a blocking receive on a dedicated thread, so the rows differ only in
/// the client. The measured lambdas use the pooling builder, so the harness's own state machines are not counted as
/// the libraries' allocations.
/// </summary>
internal static class AsyncRoundTrips
{
    public const string Scenario = "Async round trip";
    public const int Size = 64;

    public static List<LatencyResult> Measure()
    {
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        using var server = new Socket(context, SocketType.Router);
        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.LastEndpoint;
        var echo = new Thread(() => Echo(server)) { IsBackground = true, Name = "echo server" };
        echo.Start();

        var results = new List<LatencyResult>();
        byte[] payload = new byte[Size];
        byte[] reply = new byte[Size];
        using (var client = new Socket(context, SocketType.Dealer))
        {
            client.Connect(endpoint);
            results.Add(RoundTripRunner.MeasureAsync(Scenario, "Net.Zmq sync", Size, () =>
            {
                client.Send(payload);
                client.Recv(reply);
                return ValueTask.CompletedTask;
            }).GetAwaiter().GetResult());
            results.Add(Task.Run(() => RoundTripRunner.MeasureAsync(Scenario, "Net.Zmq async", Size, [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))] async ValueTask () =>
            {
                await client.SendAsync(payload.AsMemory()).ConfigureAwait(false);
                await client.RecvAsync(reply.AsMemory()).ConfigureAwait(false);
            })).GetAwaiter().GetResult());
        }

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
            results.Add(measuring.Result);
        }

        NetMQConfig.Cleanup(block: false);
        context.Shutdown();
        echo.Join();
        return results;
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
