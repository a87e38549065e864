using System.Diagnostics;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>Many sockets awaiting at once share the one reactor without losing, duplicating or crossing messages.</summary>
public sealed class ConcurrentDealersTests(ITestOutputHelper output)
{
    private const int Dealers = 100;
    private const int RoundTripsPerDealer = 100;
    private const int Total = Dealers * RoundTripsPerDealer;

    [Fact]
    public async Task A_hundred_dealers_make_ten_thousand_round_trips_with_an_async_router_echo_and_lose_nothing()
    {
        using Context context = Sockets.NewContext();
        using var router = new Socket(context, SocketType.Router);
        string endpoint = Endpoints.BindTcp(router);
        var dealers = Enumerable.Range(0, Dealers).Select(_ => new Socket(context, SocketType.Dealer)).ToArray();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        try
        {
            foreach (Socket dealer in dealers)
            {
                dealer.Connect(endpoint);
            }

            var clock = Stopwatch.StartNew();
            Task<int> server = Task.Run(() => Echo(router, timeout.Token));
            Task[] clients = dealers.Select((dealer, id) => Task.Run(() => Client(dealer, id, timeout.Token))).ToArray();
            Task all = Task.WhenAll(clients);
            Assert.True(await Waits.FinishesAsync(all, TimeSpan.FromSeconds(60)), "the round trips did not finish within 60 s");
            await all;
            Assert.True(await Waits.FinishesAsync(server), "the echo server did not finish");
            output.WriteLine($"{Total} round trips by {Dealers} dealers in {clock.Elapsed.TotalMilliseconds:F0} ms");
            Assert.Equal(Total, await server);
            Frames.AssertNothingWaiting(router);
        }
        finally
        {
            foreach (Socket dealer in dealers)
            {
                dealer.Dispose();
            }
        }
    }

    private static async Task<int> Echo(Socket router, CancellationToken cancellationToken)
    {
        using var request = new MultipartMessage();
        int echoed = 0;
        while (echoed < Total)
        {
            await router.RecvMultipartAsync(request, cancellationToken);
            Assert.Equal(2, request.Count);
            await router.SendMultipartAsync(request, cancellationToken);
            echoed++;
        }

        return echoed;
    }

    private static async Task Client(Socket dealer, int id, CancellationToken cancellationToken)
    {
        var request = new byte[8];
        var reply = new byte[16];
        for (int sequence = 0; sequence < RoundTripsPerDealer; sequence++)
        {
            BitConverter.TryWriteBytes(request, id);
            BitConverter.TryWriteBytes(request.AsSpan(sizeof(int)), sequence);
            await dealer.SendAsync(request, cancellationToken);
            Assert.Equal(request.Length, await dealer.RecvAsync(reply, cancellationToken));
            Assert.Equal(id, BitConverter.ToInt32(reply));
            Assert.Equal(sequence, BitConverter.ToInt32(reply, sizeof(int)));
        }

        // No stray or duplicated reply is left behind.
        Frames.AssertNothingWaiting(dealer);
    }
}
