using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Lost-wake-up trap: reading <see cref="Socket.Events"/> drains libzmq's commands and consumes the ZMQ_FD edge,
/// even while an operation is parked on that edge.
/// </summary>
public sealed class EventsBetweenAwaitsTests
{
    private const int RoundTrips = 1000;

    [Fact]
    public async Task Reading_Events_between_and_during_awaits_loses_no_wake_up()
    {
        using var pair = SocketPair.Open(SocketType.Dealer, SocketType.Dealer);
        Socket client = pair.Connector;
        Socket server = pair.Binder;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var clientBuffer = new byte[8];
        var serverBuffer = new byte[8];
        PollEvents seen = PollEvents.None;

        await Task.Run(async () =>
        {
            for (int i = 0; i < RoundTrips; i++)
            {
                seen |= client.Events;
                ValueTask<int> request = server.RecvAsync(serverBuffer, timeout.Token);
                seen |= server.Events;
                ValueTask<int> reply = client.RecvAsync(clientBuffer, timeout.Token);
                seen |= client.Events;
                await client.SendAsync(BitConverter.GetBytes(i), timeout.Token);
                seen |= client.Events | server.Events;

                Assert.Equal(sizeof(int), await request);
                seen |= server.Events;
                await server.SendAsync(serverBuffer.AsMemory(0, sizeof(int)), timeout.Token);
                seen |= server.Events | client.Events;
                Assert.Equal(sizeof(int), await reply);
                Assert.Equal(i, BitConverter.ToInt32(clientBuffer));
            }
        });

        // The reads really happened: at some point a socket was writable.
        Assert.True((seen & PollEvents.Out) != 0);
    }
}
