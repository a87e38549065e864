using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class RouterRouterTests
{
    [Fact]
    public void Routers_with_explicit_routing_ids_address_each_other_by_those_ids()
    {
        using var pair = OpenRouters(mandatory: false);
        var (server, client) = pair;

        (byte[] clientId, byte[] serverId) = Connections.CompleteRouterHandshake(server, client);
        Assert.Equal("client"u8.ToArray(), clientId);
        Assert.Equal("server"u8.ToArray(), serverId);

        Frames.SendStrings(client, "server", "ping", "from client");
        Assert.Equal(["client", "ping", "from client"], Frames.RecvStrings(server));

        Frames.SendStrings(server, "client", "pong");
        Assert.Equal(["server", "pong"], Frames.RecvStrings(client));
    }

    [Fact]
    public void Router_mandatory_send_to_an_unknown_routing_id_throws_EHOSTUNREACH()
    {
        using var pair = OpenRouters(mandatory: true);
        var (server, client) = pair;
        Connections.CompleteRouterHandshake(server, client);

        var fromClient = Assert.Throws<ZmqException>(() => client.Send("nobody", SendFlags.SendMore));
        Assert.Equal(ZmqError.EHOSTUNREACH, fromClient.ErrorNumber);
        var fromServer = Assert.Throws<ZmqException>(() => server.Send("nobody", SendFlags.SendMore));
        Assert.Equal(ZmqError.EHOSTUNREACH, fromServer.ErrorNumber);

        // The refused id left nothing half-sent: a message to the known peer goes through intact.
        Frames.SendStrings(client, "server", "still fine");
        Assert.Equal(["client", "still fine"], Frames.RecvStrings(server));
        Frames.AssertNothingWaiting(server);
    }

    [Fact]
    public void Router_without_mandatory_silently_drops_a_message_to_an_unknown_routing_id()
    {
        using var pair = OpenRouters(mandatory: false);
        var (server, client) = pair;
        Connections.CompleteRouterHandshake(server, client);

        Assert.True(client.Send("nobody", SendFlags.SendMore));
        Assert.True(client.Send("lost"));
        Frames.SendStrings(client, "server", "delivered");

        Assert.Equal(["client", "delivered"], Frames.RecvStrings(server));
        Frames.AssertNothingWaiting(server);
    }

    /// <summary>
    /// A ROUTER "server" and a ROUTER "client" that probes it on connecting (ProbeRouter), both with
    /// <paramref name="mandatory"/> RouterMandatory.
    /// </summary>
    private static SocketPair OpenRouters(bool mandatory) =>
        SocketPair.Open(SocketType.Router, SocketType.Router, configure: (server, client) =>
        {
            server.SetOption(SocketOption.RoutingId, "server");
            client.SetOption(SocketOption.RoutingId, "client");
            client.SetOption(SocketOption.ProbeRouter, true);
            if (mandatory)
            {
                client.SetOption(SocketOption.RouterMandatory, true);
                server.SetOption(SocketOption.RouterMandatory, true);
            }
        });
}
