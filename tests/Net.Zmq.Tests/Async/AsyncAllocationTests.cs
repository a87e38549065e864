using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// In steady state an async round trip with a reused Message or buffer allocates nothing. Continuations hop between
/// threads, so the whole process is measured (GC.GetTotalAllocatedBytes), alone in its collection.
/// </summary>
[Collection(ProcessMeasurementCollection.Name)]
public sealed class AsyncAllocationTests(ITestOutputHelper output)
{
    private const int WarmUp = 1000;
    private const int Measured = 2000;
    private const int Windows = 3;

    // Room for allocations the runtime makes on its own while the loop runs (thread-pool bookkeeping), far below
    // one object per round trip.
    private const double SlackBytesPerRoundTrip = 8;

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task A_reused_message_and_buffer_round_trip_allocates_nothing_per_operation(bool inproc)
    {
        using var pair = SocketPair.Open(SocketType.Dealer, SocketType.Dealer, inproc);
        Socket client = pair.Connector;
        Socket server = pair.Binder;

        // A cancellable token: a parked operation registers with it, and that registration must not allocate either.
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var request = new byte[64];
        var reply = new byte[64];
        using var forwarded = new Message();

        // Task.Run: no synchronization context, so the measured loops schedule nothing of their own.
        long[] allocated = await Task.Run(async () =>
        {
            var windows = new long[Windows];
            Task echo = Echo(server, forwarded, WarmUp + (Windows * Measured), timeout.Token);
            await RoundTrips(client, request, reply, WarmUp, timeout.Token);
            for (int w = 0; w < Windows; w++)
            {
                long before = GC.GetTotalAllocatedBytes(precise: true);
                await RoundTrips(client, request, reply, Measured, timeout.Token);
                windows[w] = GC.GetTotalAllocatedBytes(precise: true) - before;
            }

            await echo;
            return windows;
        });

        // The counter covers the whole process, and the test host reports earlier results on its own threads now
        // and then. An allocation per operation shows in every window; such background noise does not, so the
        // best window is the one judged.
        double perRoundTrip = (double)allocated.Min() / Measured;
        output.WriteLine($"{(inproc ? "inproc" : "tcp")}: bytes allocated per window of {Measured} round trips: {string.Join(", ", allocated)}; best {perRoundTrip:F2} B each");
        Assert.True(perRoundTrip < SlackBytesPerRoundTrip, $"{perRoundTrip:F2} bytes allocated per async round trip");
    }

    private static async Task Echo(Socket server, Message message, int count, CancellationToken cancellationToken)
    {
        for (int i = 0; i < count; i++)
        {
            await server.RecvAsync(message, cancellationToken).ConfigureAwait(false);
            await server.SendAsync(message, cancellationToken).ConfigureAwait(false);
        }
    }

    private static async Task RoundTrips(Socket client, byte[] request, byte[] reply, int count, CancellationToken cancellationToken)
    {
        for (int i = 0; i < count; i++)
        {
            request[0] = (byte)i;
            await client.SendAsync(request, cancellationToken).ConfigureAwait(false);
            int size = await client.RecvAsync(reply, cancellationToken).ConfigureAwait(false);
            if (size != request.Length || reply[0] != (byte)i)
            {
                throw new InvalidOperationException($"round trip {i} returned a wrong reply");
            }
        }
    }
}
