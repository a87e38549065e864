using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class PureBlockingLoopTests
{
    [Fact]
    public void Pure_blocking_loop_receives_all_10000_router_to_router_messages_in_order()
    {
        using var link = new RouterToRouterLink();
        int received = 0;

        link.Run(() =>
        {
            var id = new byte[32];
            var payload = new byte[128];
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
}
