using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class ReqRepStateMachineTests : ContextPerTest
{
    [Fact]
    public void Req_second_send_before_reply_throws_EFSM()
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (server, client) = pair;

        Assert.True(client.Send("first"));
        var error = Assert.Throws<ZmqException>(() => client.Send("second"));
        Assert.Equal(ZmqError.EFSM, error.ErrorNumber);

        // The refused request never left: the server sees only the first one, and the exchange goes on normally.
        Assert.Equal("first", server.RecvString());
        Assert.True(server.Send("reply"));
        Assert.Equal("reply", client.RecvString());
        Frames.AssertNothingWaiting(server);

        Assert.True(client.Send("third"));
        Assert.Equal("third", server.RecvString());
    }

    [Fact]
    public void Req_receive_before_any_send_throws_EFSM()
    {
        using Socket client = Sockets.New(Context, SocketType.Req);
        client.Connect(Endpoints.NewInproc());

        var error = Assert.Throws<ZmqException>(() => client.RecvString());
        Assert.Equal(ZmqError.EFSM, error.ErrorNumber);
    }

    [Fact]
    public void Rep_send_before_receiving_a_request_throws_EFSM()
    {
        using Socket server = Sockets.New(Context, SocketType.Rep);
        Endpoints.BindTcp(server);

        var error = Assert.Throws<ZmqException>(() => server.Send("unsolicited"));
        Assert.Equal(ZmqError.EFSM, error.ErrorNumber);
    }

    [Fact]
    public void Rep_second_receive_before_replying_throws_EFSM()
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (server, client) = pair;

        Assert.True(client.Send("question"));
        Assert.Equal("question", server.RecvString());

        var error = Assert.Throws<ZmqException>(() => server.RecvString());
        Assert.Equal(ZmqError.EFSM, error.ErrorNumber);
    }
}
