using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class ReqRouterEnvelopeTests : ContextPerTest
{
    [Fact]
    public void Router_receives_routing_id_empty_delimiter_and_payload_from_req()
    {
        using Socket router = Sockets.New(Context, SocketType.Router);
        using Socket client = Sockets.New(Context, SocketType.Req);
        client.SetOption(SocketOption.RoutingId, "client-7");
        client.Connect(Endpoints.BindTcp(router));

        Assert.True(client.Send("request"));

        using MultipartMessage envelope = router.RecvMultipart();
        Assert.Equal(3, envelope.Count);
        Assert.Equal("client-7", envelope[0].ToString());
        Assert.Equal(0, envelope[1].Size);
        Assert.True(envelope[1].More);
        Assert.Equal("request", envelope[2].ToString());
        Assert.False(envelope[2].More);

        // Replying with the same envelope delivers just the payload to the REQ.
        using var reply = new MultipartMessage();
        reply.Add("client-7");
        reply.AddEmpty();
        reply.Add("reply");
        Assert.True(router.SendMultipart(reply));

        using MultipartMessage answer = client.RecvMultipart();
        Assert.Single(answer);
        Assert.Equal("reply", answer[0].ToString());
    }
}
