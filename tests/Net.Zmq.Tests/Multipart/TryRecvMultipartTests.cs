using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

public class TryRecvMultipartTests : ContextPerTest
{
    [Fact]
    public void TryRecvMultipart_on_an_empty_socket_returns_false_and_null()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindTcp(pull);

        Assert.False(pull.TryRecvMultipart(out MultipartMessage? message));
        Assert.Null(message);
    }

    [Fact]
    public void TryRecvMultipart_returns_a_whole_waiting_message_and_then_false()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        Frames.SendStrings(push, "one", "two", "three");

        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));

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
