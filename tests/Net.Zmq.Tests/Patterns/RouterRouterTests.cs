using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class RouterRouterTests
{
    [Fact]
    public void Routers_with_explicit_routing_ids_address_each_other_by_those_ids()
    {
        using Context context = SocketKit.NewContext();
        using Socket server = SocketKit.NewSocket(context, SocketType.Router);
        using Socket client = SocketKit.NewSocket(context, SocketType.Router);
        server.SetOption(SocketOption.RoutingId, "server");
        client.SetOption(SocketOption.RoutingId, "client");
        client.SetOption(SocketOption.ProbeRouter, true);
        client.Connect(SocketKit.BindTcp(server));

        (byte[] clientId, byte[] serverId) = SocketKit.CompleteRouterHandshake(server, client);
        Assert.Equal("client"u8.ToArray(), clientId);
        Assert.Equal("server"u8.ToArray(), serverId);

        SocketKit.SendStrings(client, "server", "ping", "from client");
        Assert.Equal(["client", "ping", "from client"], SocketKit.RecvStrings(server));

        SocketKit.SendStrings(server, "client", "pong");
        Assert.Equal(["server", "pong"], SocketKit.RecvStrings(client));
    }

    [Fact]
    public void Router_mandatory_send_to_an_unknown_routing_id_throws_EHOSTUNREACH()
    {
        using Context context = SocketKit.NewContext();
        using Socket server = SocketKit.NewSocket(context, SocketType.Router);
        using Socket client = SocketKit.NewSocket(context, SocketType.Router);
        server.SetOption(SocketOption.RoutingId, "server");
        client.SetOption(SocketOption.RoutingId, "client");
        client.SetOption(SocketOption.ProbeRouter, true);
        client.SetOption(SocketOption.RouterMandatory, true);
        server.SetOption(SocketOption.RouterMandatory, true);
        client.Connect(SocketKit.BindTcp(server));
        SocketKit.CompleteRouterHandshake(server, client);

        var fromClient = Assert.Throws<ZmqException>(() => client.Send("nobody", SendFlags.SendMore));
        Assert.Equal(ZmqError.EHOSTUNREACH, fromClient.ErrorNumber);
        var fromServer = Assert.Throws<ZmqException>(() => server.Send("nobody", SendFlags.SendMore));
        Assert.Equal(ZmqError.EHOSTUNREACH, fromServer.ErrorNumber);

        // The refused id left nothing half-sent: a message to the known peer goes through intact.
        SocketKit.SendStrings(client, "server", "still fine");
        Assert.Equal(["client", "still fine"], SocketKit.RecvStrings(server));
        SocketKit.AssertNothingWaiting(server);
    }

    [Fact]
    public void Router_without_mandatory_silently_drops_a_message_to_an_unknown_routing_id()
    {
        using Context context = SocketKit.NewContext();
        using Socket server = SocketKit.NewSocket(context, SocketType.Router);
        using Socket client = SocketKit.NewSocket(context, SocketType.Router);
        server.SetOption(SocketOption.RoutingId, "server");
        client.SetOption(SocketOption.ProbeRouter, true);
        client.SetOption(SocketOption.RoutingId, "client");
        client.Connect(SocketKit.BindTcp(server));
        SocketKit.CompleteRouterHandshake(server, client);

        Assert.True(client.Send("nobody", SendFlags.SendMore));
        Assert.True(client.Send("lost"));
        SocketKit.SendStrings(client, "server", "delivered");

        Assert.Equal(["client", "delivered"], SocketKit.RecvStrings(server));
        SocketKit.AssertNothingWaiting(server);
    }
}
