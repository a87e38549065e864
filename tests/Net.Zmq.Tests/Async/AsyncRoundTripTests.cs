using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

public sealed class AsyncRoundTripTests : ContextPerTest
{
    [Fact]
    public async Task Dealer_and_router_exchange_requests_and_replies_asynchronously()
    {
        using var router = new Socket(Context, SocketType.Router);
        using var dealer = new Socket(Context, SocketType.Dealer);
        dealer.Connect(Endpoints.BindTcp(router));

        using var cancel = new CancellationTokenSource(Timeouts.Wait);
        using var request = new MultipartMessage();
        var buffer = new byte[64];
        for (int i = 0; i < 100; i++)
        {
            Task<string> reply = dealer.RecvStringAsync(cancel.Token).AsTask();
            await dealer.SendAsync($"request {i}", cancel.Token);
            await router.RecvMultipartAsync(request, cancel.Token);
            Assert.Equal(2, request.Count);
            Assert.Equal($"request {i}", request[1].ToString());
            await router.SendAsync(request[0], SendFlags.SendMore, cancel.Token);
            await router.SendAsync($"reply {i}", cancel.Token);
            Assert.Equal($"reply {i}", await reply);
        }
    }
}
