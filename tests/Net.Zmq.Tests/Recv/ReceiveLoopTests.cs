using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

/// <summary>
/// The receive loops of the benchmark articles, each receiving every message of a <see cref="RouterToRouterLink"/>
/// in order: blocking on every frame, blocking for the first of a batch then draining without waiting, and polling
/// then draining.
/// </summary>
public class ReceiveLoopTests
{
    [Fact]
    public void Pure_blocking_loop_receives_all_10000_router_to_router_messages_in_order()
    {
        using var link = new RouterToRouterLink();
        int received = 0;

        link.Run((id, payload) =>
        {
            for (int n = 0; n < RouterToRouterLink.MessageCount; n++)
            {
                int idSize = link.Receiver.Recv(id);
                int payloadSize = link.Receiver.Recv(payload);
                RouterToRouterLink.Check(idSize, id, payloadSize, payload, n);
                received++;
            }
        });

        Assert.Equal(RouterToRouterLink.MessageCount, received);
        Frames.AssertNothingWaiting(link.Receiver);
    }

    [Fact]
    public void Blocking_receive_then_dont_wait_drain_gets_all_10000_router_to_router_messages_in_order()
    {
        using var link = new RouterToRouterLink();
        int received = 0;
        int batches = 0;

        link.Run((id, payload) =>
        {
            while (received < RouterToRouterLink.MessageCount)
            {
                // Block for the first message of a batch...
                int idSize = link.Receiver.Recv(id);
                int payloadSize = link.Receiver.Recv(payload);
                RouterToRouterLink.Check(idSize, id, payloadSize, payload, received);
                received++;
                batches++;

                // ...then take whatever else is already here without blocking.
                received = Drain(link, id, payload, received);
            }
        });

        Assert.Equal(RouterToRouterLink.MessageCount, received);
        Assert.InRange(batches, 1, RouterToRouterLink.MessageCount);
        Frames.AssertNothingWaiting(link.Receiver);
    }

    [Fact]
    public void Poll_forever_then_drain_loop_gets_all_10000_router_to_router_messages_in_order()
    {
        using var link = new RouterToRouterLink();
        int received = 0;
        int polls = 0;

        link.Run((id, payload) =>
        {
            using var poller = new Poller(1);
            int index = poller.Add(link.Receiver, PollEvents.In);
            while (received < RouterToRouterLink.MessageCount)
            {
                int ready = poller.Poll(-1);
                polls++;
                if (ready != 1 || !poller.IsReadable(index))
                {
                    Assert.Fail($"Poll(-1) returned {ready} without the receiver being readable");
                }

                received = Drain(link, id, payload, received);
            }
        });

        Assert.Equal(RouterToRouterLink.MessageCount, received);
        Assert.InRange(polls, 1, RouterToRouterLink.MessageCount);
        Frames.AssertNothingWaiting(link.Receiver);
    }

    /// <summary>
    /// Receives and checks the messages already waiting, without blocking for the first frame of one, until none is
    /// left or all have come; returns the count received so far.
    /// </summary>
    private static int Drain(RouterToRouterLink link, byte[] id, byte[] payload, int received)
    {
        int idSize;
        while (received < RouterToRouterLink.MessageCount && (idSize = link.Receiver.Recv(id, RecvFlags.DontWait)) != -1)
        {
            int payloadSize = link.Receiver.Recv(payload);
            RouterToRouterLink.Check(idSize, id, payloadSize, payload, received);
            received++;
        }

        return received;
    }
}
