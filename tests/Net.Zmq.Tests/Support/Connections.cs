using System.Diagnostics;

namespace Net.Zmq.Tests.Support;

/// <summary>
/// Waits until a connection is really usable, where connecting returns before it is: a subscription that has reached
/// its publisher, a ROUTER that knows its peer's routing id.
/// </summary>
internal static class Connections
{
    /// <summary>
    /// Beats the PUB/SUB slow-joiner race: publishes <paramref name="probeTopic"/> until the subscriber (already
    /// subscribed to it) sees one, then publishes a barrier and discards everything up to it, so that no probe is
    /// left in flight afterwards.
    /// </summary>
    public static void AwaitSubscription(Socket publisher, Socket subscriber, string probeTopic)
    {
        using var poller = new Poller(1);
        int index = poller.Add(subscriber, PollEvents.In);
        var clock = Stopwatch.StartNew();
        while (true)
        {
            Assert.True(publisher.Send(probeTopic));
            if (poller.Poll(20) > 0 && poller.IsReadable(index))
            {
                break;
            }

            Assert.True(clock.Elapsed < Timeouts.Wait, "The subscriber never received a probe: the subscription did not reach the publisher.");
        }

        string barrier = probeTopic + "/barrier";
        Assert.True(publisher.Send(barrier));
        while (subscriber.RecvString() != barrier)
        {
        }
    }

    /// <summary>
    /// Completes the handshake between a bound ROUTER and a connecting ROUTER that was created with
    /// <see cref="SocketOption.ProbeRouter"/>: the binder receives the probe, answers it, and the connector receives
    /// the answer, after which each side can address the other by routing id.
    /// </summary>
    /// <returns>The routing id the binder saw for the connector, and the one the connector saw for the binder.</returns>
    public static (byte[] ConnectorId, byte[] BinderId) CompleteRouterHandshake(Socket binder, Socket connector)
    {
        using MultipartMessage probe = binder.RecvMultipart();
        Assert.Equal(2, probe.Count);
        Assert.Equal(0, probe[1].Size);
        byte[] connectorId = probe[0].ToArray();

        Assert.True(binder.Send(connectorId, SendFlags.SendMore));
        Assert.True(binder.Send("welcome"));

        using MultipartMessage answer = connector.RecvMultipart();
        Assert.Equal(2, answer.Count);
        Assert.Equal("welcome", answer[1].ToString());
        return (connectorId, answer[0].ToArray());
    }
}
