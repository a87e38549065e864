using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests;

public class SmokeTests
{
    [Fact]
    public void Req_and_rep_exchange_a_message_over_tcp()
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (server, client) = pair;

        Assert.True(client.Send("ping"));
        Assert.Equal("ping", server.RecvString());
        Assert.True(server.Send("pong"));
        Assert.Equal("pong", client.RecvString());
    }
}
