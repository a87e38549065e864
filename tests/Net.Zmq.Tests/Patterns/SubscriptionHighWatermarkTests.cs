using System.Diagnostics;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Patterns;

/// <summary>
/// A SUB socket sends its subscriptions to the publisher through the same pipe as any outgoing message, bounded by
/// its <see cref="SocketOption.SendHighWatermark"/>. libzmq drops the subscriptions that do not fit, without an error
/// from <see cref="Socket.Subscribe(string)"/> and without a monitor event. These tests pin that (so a libzmq that
/// changes it is noticed) and the remedy the docs give: <c>SendHighWatermark = 0</c> on the SUB.
/// </summary>
public class SubscriptionHighWatermarkTests(ITestOutputHelper output)
{
    private const int Topics = 10_000;
    private const int DefaultHighWatermark = 1000;

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Subscriptions_beyond_the_SUB_send_high_water_mark_are_dropped_without_an_error(bool subscribeBeforeConnect)
    {
        // Subscribe does not let the SUB process libzmq's commands, so the pipe, once full, stays full for the whole
        // loop even while the I/O thread drains it: the count does not depend on scheduling.
        int arrived = CountArrivingSubscriptions(sendHighWatermark: null, subscribeBeforeConnect);

        output.WriteLine($"libzmq {Context.Version}: {Topics:N0} Subscribe calls {When(subscribeBeforeConnect)}, default SendHighWatermark ({DefaultHighWatermark:N0}): {arrived:N0} reached the XPUB");
        Assert.True(arrived < Topics,
            $"all {Topics:N0} subscriptions arrived with the default SendHighWatermark: libzmq no longer drops subscriptions beyond the SUB's high-water mark; update the Subscribe docs, docs/patterns.md and docs/reliability.md");
        Assert.InRange(arrived, DefaultHighWatermark / 2, 2 * DefaultHighWatermark);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void With_SendHighWatermark_0_every_subscription_arrives(bool subscribeBeforeConnect)
    {
        int arrived = CountArrivingSubscriptions(sendHighWatermark: 0, subscribeBeforeConnect);

        output.WriteLine($"libzmq {Context.Version}: {Topics:N0} Subscribe calls {When(subscribeBeforeConnect)}, SendHighWatermark 0: {arrived:N0} reached the XPUB");
        Assert.Equal(Topics, arrived);
    }

    /// <summary>
    /// Subscribes a SUB to <see cref="Topics"/> distinct topics and counts the subscription messages its XPUB receives.
    /// The count is final once a barrier subscription (a fresh topic per attempt, since a repeated topic sends nothing)
    /// arrives: the connection delivers in order, so everything the SUB queued before it has arrived.
    /// </summary>
    private static int CountArrivingSubscriptions(int? sendHighWatermark, bool subscribeBeforeConnect)
    {
        using var context = Sockets.NewContext();
        using var xpub = Sockets.New(context, SocketType.XPub);
        using var sub = Sockets.New(context, SocketType.Sub);
        if (sendHighWatermark is int hwm)
        {
            sub.SetOption(SocketOption.SendHighWatermark, hwm);
        }

        string endpoint = Endpoints.BindTcp(xpub);
        if (subscribeBeforeConnect)
        {
            SubscribeAll(sub);
            sub.Connect(endpoint);
        }
        else
        {
            sub.Connect(endpoint);
            WaitForBarrier(xpub, sub, "ready-");
            SubscribeAll(sub);
        }

        return WaitForBarrier(xpub, sub, "barrier-");
    }

    private static string When(bool subscribeBeforeConnect) => subscribeBeforeConnect ? "before Connect" : "after the connection is up";

    private static void SubscribeAll(Socket sub)
    {
        for (int i = 0; i < Topics; i++)
        {
            sub.Subscribe($"topic-{i:D5}");
        }
    }

    /// <summary>Subscribes fresh barrier topics until one reaches the XPUB; returns how many other subscriptions came first.</summary>
    private static int WaitForBarrier(Socket xpub, Socket sub, string barrierPrefix)
    {
        using var poller = new Poller(1);
        int index = poller.Add(xpub, PollEvents.In);
        using var message = new Message();
        int others = 0;
        int attempt = 0;
        var clock = Stopwatch.StartNew();
        while (true)
        {
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"no {barrierPrefix} subscription reached the XPUB in 10 s");
            // A SUB processes libzmq's "pipe writable again" command only when it is used (receive, poll, Events):
            // a real subscriber is receiving; this one asks for its events, else the pipe would stay shut.
            _ = sub.GetOption<int>(SocketOption.Events);
            sub.Subscribe($"{barrierPrefix}{attempt++}");
            if (poller.Poll(50) == 0 || !poller.IsReadable(index))
            {
                continue;
            }

            while (xpub.TryRecv(message))
            {
                if (message.Data[0] != 1)
                {
                    continue;
                }

                if (message.ToString()[1..].StartsWith(barrierPrefix, StringComparison.Ordinal))
                {
                    return others;
                }

                others++;
            }
        }
    }
}
