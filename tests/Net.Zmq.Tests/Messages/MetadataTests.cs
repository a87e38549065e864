using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class MetadataTests : ContextPerTest
{
    public static TheoryData<SocketType, SocketType, string> Peers => new()
    {
        { SocketType.Dealer, SocketType.Dealer, "DEALER" },
        { SocketType.Push, SocketType.Pull, "PUSH" },
        { SocketType.Req, SocketType.Rep, "REQ" },
        { SocketType.Pair, SocketType.Pair, "PAIR" },
        { SocketType.Dealer, SocketType.Router, "DEALER" },
    };

    [Theory]
    [MemberData(nameof(Peers))]
    public void Frame_received_over_tcp_names_the_senders_socket_type_and_address(SocketType senderType, SocketType receiverType, string expectedType)
    {
        using var receiver = Sockets.New(Context, receiverType);
        using var sender = Sockets.New(Context, senderType);
        receiver.Bind(Endpoints.EphemeralTcp);
        sender.Connect(receiver.LastEndpoint);
        sender.Send("hello");

        using var frame = new Message();
        do
        {
            Assert.True(receiver.Recv(frame)); // a ROUTER delivers the routing id first
        }
        while (frame.More);

        Assert.Equal("hello", frame.ToString());
        Assert.Equal(expectedType, frame.GetMetadata("Socket-Type"));
        Assert.Equal("127.0.0.1", frame.GetMetadata("Peer-Address"));
    }

    [Fact]
    public void Frame_from_a_peer_with_a_routing_id_carries_it_as_Routing_Id()
    {
        using var router = Sockets.New(Context, SocketType.Router);
        using var dealer = Sockets.New(Context, SocketType.Dealer);
        dealer.SetOption(SocketOption.RoutingId, "alice");
        router.Bind(Endpoints.EphemeralTcp);
        dealer.Connect(router.LastEndpoint);
        dealer.Send("hello");

        using var frame = new Message();
        Assert.True(router.Recv(frame));
        Assert.Equal("alice", frame.ToString()); // the envelope ROUTER adds
        Assert.True(router.Recv(frame));

        Assert.Equal("hello", frame.ToString());
        Assert.Equal("alice", frame.GetMetadata("Routing-Id"));
    }

    [Fact]
    public void Unknown_property_is_null()
    {
        using var receiver = Sockets.New(Context, SocketType.Pull);
        using var sender = Sockets.New(Context, SocketType.Push);
        receiver.Bind(Endpoints.EphemeralTcp);
        sender.Connect(receiver.LastEndpoint);
        sender.Send("hello");
        using var frame = receiver.Recv();

        Assert.Null(frame.GetMetadata("X-No-Such-Property"));
        Assert.Null(frame.GetMetadata("User-Id"));
        Assert.NotNull(frame.GetMetadata("Socket-Type"));
    }

    [Fact]
    public void Locally_built_message_has_no_metadata()
    {
        using var message = new Message("local");

        Assert.Null(message.GetMetadata("Socket-Type"));
        Assert.Null(message.GetMetadata("Peer-Address"));
    }

    [Fact]
    public void Null_or_empty_property_name_throws()
    {
        using var message = new Message("local");

        Assert.Throws<ArgumentNullException>(() => message.GetMetadata(null!));
        Assert.Throws<ArgumentException>(() => message.GetMetadata(""));
    }
}
