using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

/// <summary>
/// REQ and REP: round trips of text and bytes, each reply routed back to the REQ that asked, and the strict
/// alternation of send and receive that both sockets enforce (EFSM).
/// </summary>
public class ReqRepTests : ContextPerTest
{
    [Fact]
    public void Req_and_rep_complete_many_round_trips_over_tcp()
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (server, client) = pair;

        for (int i = 0; i < 20; i++)
        {
            Assert.True(client.Send($"request {i}"));
            Assert.Equal($"request {i}", server.RecvString());
            Assert.False(server.HasMore);

            Assert.True(server.Send($"reply {i}"));
            Assert.Equal($"reply {i}", client.RecvString());
            Assert.False(client.HasMore);
        }
    }

    [Fact]
    public void Rep_routes_each_reply_back_to_the_req_that_asked()
    {
        using var group = new SocketGroup(Context);
        Socket server = group.New(SocketType.Rep);
        Socket[] clients = group.ConnectedTo(Endpoints.BindTcp(server), SocketType.Req, 2);

        Assert.True(clients[0].Send("first"));
        Assert.True(clients[1].Send("second"));

        // The REP serves the requests in whatever order they arrive; each reply names the request it answers.
        for (int i = 0; i < 2; i++)
        {
            string request = server.RecvString();
            Assert.True(server.Send($"answer to {request}"));
        }

        Assert.Equal("answer to first", clients[0].RecvString());
        Assert.Equal("answer to second", clients[1].RecvString());
    }

    [Fact]
    public void Req_and_rep_exchange_binary_payloads_unchanged()
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (server, client) = pair;

        byte[] request = Enumerable.Range(0, 1000).Select(i => (byte)(i * 7)).ToArray();
        Assert.True(client.Send(request));
        byte[] received = server.RecvBytes();
        Assert.Equal(request, received);

        byte[] reply = Enumerable.Reverse(received).ToArray();
        Assert.True(server.Send(reply));
        Assert.Equal(reply, client.RecvBytes());
    }

    [Theory]
    [InlineData(10)]
    [InlineData(2000)]
    public void Req_and_rep_exchange_non_ascii_text_of_any_length_unchanged(int repeat)
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (server, client) = pair;
        string text = string.Concat(Enumerable.Repeat("héllo wörld ✓ 🚀 ", repeat));

        Assert.True(client.Send(text));
        Assert.Equal(text, server.RecvString());
        Assert.True(server.Send(text + "!"));
        Assert.Equal(text + "!", client.RecvString());
    }

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
