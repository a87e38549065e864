using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Lost-wake-up trap: a send on a DEALER processes libzmq's pending commands, among them the one that makes a
/// reply readable, and so consumes the edge on ZMQ_FD that a parked receive was waiting for.
/// </summary>
public sealed class SendMakesReadableTests
{
    private const int Requests = 2000;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_receive_parked_while_the_same_dealer_sends_still_sees_every_reply(bool inproc)
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Dealer, inproc);
        Socket router = pair.Binder;
        Socket dealer = pair.Connector;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var echo = BackgroundWork.Start("router echo", () =>
        {
            using var request = new MultipartMessage();
            for (int i = 0; i < Requests; i++)
            {
                Assert.True(router.RecvMultipart(request));
                Assert.True(router.SendMultipart(request));
            }
        });

        var buffer = new byte[16];
        await Task.Run(async () =>
        {
            // One request always in flight ahead of the reply awaited: each send races the previous reply.
            await dealer.SendAsync(BitConverter.GetBytes(0), timeout.Token);
            for (int i = 0; i < Requests; i++)
            {
                ValueTask<int> reply = dealer.RecvAsync(buffer, timeout.Token);
                if (i + 1 < Requests)
                {
                    await dealer.SendAsync(BitConverter.GetBytes(i + 1), timeout.Token);
                }

                Assert.Equal(sizeof(int), await reply);
                Assert.Equal(i, BitConverter.ToInt32(buffer));
            }
        });

        echo.Join(Timeouts.Wait);
    }
}
