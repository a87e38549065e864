namespace Net.Zmq.Tests;

public class SmokeTests
{
    [Fact]
    public void Req_and_rep_exchange_a_message_over_tcp()
    {
        using var context = new Context();
        using var server = new Socket(context, SocketType.Rep);
        using var client = new Socket(context, SocketType.Req);
        server.Bind("tcp://127.0.0.1:*");
        client.Connect(server.LastEndpoint);

        Assert.True(client.Send("ping"));
        Assert.Equal("ping", server.RecvString());
        Assert.True(server.Send("pong"));
        Assert.Equal("pong", client.RecvString());
    }
}
