using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class BlockingWithBatchLoopTests
{
    [Fact]
    public void Blocking_receive_then_dont_wait_drain_gets_all_10000_router_to_router_messages_in_order()
    {
        using var link = new RouterToRouterLink();
        int received = 0;
        int batches = 0;

        link.Run(() =>
        {
            var id = new byte[32];
            var payload = new byte[128];
            while (received < RouterToRouterLink.MessageCount)
            {
                // Block for the first message of a batch...
                int idSize = link.Receiver.Recv(id);
                int payloadSize = link.Receiver.Recv(payload);
                RouterToRouterLink.Check(idSize, id, payloadSize, payload, received);
                received++;
                batches++;

                // ...then take whatever else is already here without blocking.
                while (received < RouterToRouterLink.MessageCount && (idSize = link.Receiver.Recv(id, RecvFlags.DontWait)) != -1)
                {
                    payloadSize = link.Receiver.Recv(payload);
                    RouterToRouterLink.Check(idSize, id, payloadSize, payload, received);
                    received++;
                }
            }
        });

        Assert.Equal(RouterToRouterLink.MessageCount, received);
        Assert.InRange(batches, 1, RouterToRouterLink.MessageCount);
        Frames.AssertNothingWaiting(link.Receiver);
    }
}
