using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

public class TryRecvMultipartTests
{
    [Fact]
    public void TryRecvMultipart_on_an_empty_socket_returns_false_and_null()
    {
        using Context context = SocketKit.NewContext();
        using Socket pull = SocketKit.NewSocket(context, SocketType.Pull);
        SocketKit.BindTcp(pull);

        Assert.False(pull.TryRecvMultipart(out MultipartMessage? message));
        Assert.Null(message);
    }

    [Fact]
    public void TryRecvMultipart_returns_a_whole_waiting_message_and_then_false()
    {
        using Context context = SocketKit.NewContext();
        using Socket pull = SocketKit.NewSocket(context, SocketType.Pull);
        using Socket push = SocketKit.NewSocket(context, SocketType.Push);
        push.Connect(SocketKit.BindTcp(pull));
        SocketKit.SendStrings(push, "one", "two", "three");

        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        Assert.Equal(1, poller.Poll(SocketKit.TimeoutMs));

        Assert.True(pull.TryRecvMultipart(out MultipartMessage? message));
        using (message)
        {
            Assert.NotNull(message);
            Assert.Equal(["one", "two", "three"], message.Select(frame => frame.ToString()));
            Assert.Equal([true, true, false], message.Select(frame => frame.More));
        }

        Assert.False(pull.TryRecvMultipart(out MultipartMessage? none));
        Assert.Null(none);
    }
}
