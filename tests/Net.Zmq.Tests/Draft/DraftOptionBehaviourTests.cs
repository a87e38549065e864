using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

public class DraftOptionBehaviourTests : ContextPerTest
{
    [DraftFact]
    public void RouterNotify_delivers_an_empty_frame_from_a_peer_when_it_connects_and_when_it_disconnects()
    {
        using Socket router = Sockets.New(Context, SocketType.Router);
        router.SetOption(SocketOption.RouterNotify, 3); // ZMQ_NOTIFY_CONNECT | ZMQ_NOTIFY_DISCONNECT
        string endpoint = Endpoints.BindTcp(router);

        using (Socket dealer = Sockets.New(Context, SocketType.Dealer))
        {
            dealer.SetOption(SocketOption.RoutingId, "dealer-1");
            dealer.Connect(endpoint);
            Assert.Equal(["dealer-1", ""], Frames.RecvStrings(router));
        }

        Assert.Equal(["dealer-1", ""], Frames.RecvStrings(router));
    }

    [DraftFact]
    public void HelloMessage_and_DisconnectMessage_reach_the_server_when_a_client_comes_and_goes()
    {
        using Socket server = Sockets.New(Context, SocketType.Server);
        server.SetOption(SocketOption.DisconnectMessage, "gone"u8);
        string endpoint = Endpoints.BindTcp(server);

        uint clientId;
        using (Socket client = Sockets.New(Context, SocketType.Client))
        {
            client.SetOption(SocketOption.HelloMessage, "hello"u8);
            client.Connect(endpoint);
            using Message hello = DraftSupport.Receive(server);
            Assert.Equal("hello", hello.ToString());
            clientId = hello.RoutingId;
        }

        using Message gone = DraftSupport.Receive(server);
        Assert.Equal("gone", gone.ToString());
        Assert.Equal(clientId, gone.RoutingId);
    }

    [Fact]
    public void OnlyFirstSubscribe_lets_a_frame_after_data_pass_as_data_instead_of_subscribing()
    {
        // In zmq.h's draft section, but handled by every libzmq 4.3 build.
        using Socket publisher = Sockets.New(Context, SocketType.XPub);
        using Socket subscriber = Sockets.New(Context, SocketType.XSub);
        publisher.SetOption(SocketOption.OnlyFirstSubscribe, true);
        subscriber.SetOption(SocketOption.OnlyFirstSubscribe, true);
        subscriber.Connect(Endpoints.BindInproc(publisher));

        Assert.True(subscriber.Send("\u0001news"));
        Assert.Equal("\u0001news", publisher.RecvString());
        Frames.SendStrings(subscriber, "data", "\u0001sport");
        Assert.Equal(["data", "\u0001sport"], Frames.RecvStrings(publisher)); // handed over as data

        Assert.True(publisher.Send("sport 1"));
        Assert.True(publisher.Send("news 1"));
        Assert.Equal("news 1", subscriber.RecvString()); // "sport" was never subscribed
    }
}
