using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class PollerLoopTests
{
    [Fact]
    public void Poll_forever_then_drain_loop_gets_all_10000_router_to_router_messages_in_order()
    {
        using var link = new RouterToRouterLink();
        int received = 0;
        int polls = 0;

        link.Run(() =>
        {
            var id = new byte[32];
            var payload = new byte[128];
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

                int idSize;
                while (received < RouterToRouterLink.MessageCount && (idSize = link.Receiver.Recv(id, RecvFlags.DontWait)) != -1)
                {
                    int payloadSize = link.Receiver.Recv(payload);
                    RouterToRouterLink.Check(idSize, id, payloadSize, payload, received);
                    received++;
                }
            }
        });

        Assert.Equal(RouterToRouterLink.MessageCount, received);
        Assert.InRange(polls, 1, RouterToRouterLink.MessageCount);
        Frames.AssertNothingWaiting(link.Receiver);
    }
}
