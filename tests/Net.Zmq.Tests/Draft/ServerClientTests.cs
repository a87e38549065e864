using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

public class ServerClientTests : ContextPerTest
{
    [DraftFact]
    public void Server_answers_each_client_through_the_routing_id_its_request_carried()
    {
        using var group = new SocketGroup(Context);
        Socket server = group.New(SocketType.Server);
        Socket[] clients = group.ConnectedTo(Endpoints.BindTcp(server), SocketType.Client, 2);
        var (first, second) = (clients[0], clients[1]);

        DraftSupport.Send(first, "from first");
        DraftSupport.Send(second, "from second");
        var routingIds = new Dictionary<string, uint>();
        for (int i = 0; i < 2; i++)
        {
            using Message request = DraftSupport.Receive(server);
            Assert.NotEqual(0u, request.RoutingId);
            routingIds[request.ToString()] = request.RoutingId;
        }

        Assert.NotEqual(routingIds["from first"], routingIds["from second"]);
        DraftSupport.Send(server, "to second", routingIds["from second"]);
        DraftSupport.Send(server, "to first", routingIds["from first"]);

        Assert.Equal("to first", first.RecvString());
        Assert.Equal("to second", second.RecvString());
        Frames.AssertNothingWaiting(first);
        Frames.AssertNothingWaiting(second);
    }

    [DraftFact]
    public void Server_send_to_an_unknown_routing_id_fails_with_EHOSTUNREACH()
    {
        using Socket server = Sockets.New(Context, SocketType.Server);
        using var message = new Message("nobody") { RoutingId = 12345 };

        var ex = Assert.Throws<ZmqException>(() => server.Send(message));

        Assert.Equal(ZmqError.EHOSTUNREACH, ex.ErrorNumber);
    }

    [DraftFact]
    public async Task Client_and_server_exchange_many_requests_from_two_threads_at_once()
    {
        using var pair = SocketPair.Open(SocketType.Server, SocketType.Client);
        var (server, client) = pair;
        const int Requests = 200;

        // Draft sockets are thread-safe: one thread sends while another receives on the same client.
        Task sender = Waits.Run(() =>
        {
            for (int i = 0; i < Requests; i++)
            {
                DraftSupport.Send(client, $"request {i}");
            }
        });
        Task echo = Waits.Run(() =>
        {
            using var message = new Message();
            for (int i = 0; i < Requests; i++)
            {
                Assert.True(server.Recv(message));
                Assert.True(server.Send(message)); // the received routing id sends it back to its client
            }
        });

        for (int i = 0; i < Requests; i++)
        {
            Assert.Equal($"request {i}", client.RecvString());
        }

        Assert.True(await Waits.FinishesAsync(sender) && await Waits.FinishesAsync(echo));
        await sender;
        await echo;
    }
}
