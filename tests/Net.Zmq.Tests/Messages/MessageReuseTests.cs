using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class MessageReuseTests : ContextPerTest
{
    [Fact]
    public void One_message_receives_frames_of_many_different_sizes_in_turn()
    {
        int[] sizes = [0, 1, 33, 34, 5, 100_000, 2, 8192, 0, 33, 1 << 20, 7];
        using var push = Sockets.New(Context, SocketType.Push);
        using var pull = Sockets.New(Context, SocketType.Pull);
        pull.Bind(Endpoints.EphemeralTcp);
        push.Connect(pull.LastEndpoint);
        for (int i = 0; i < sizes.Length; i++)
        {
            push.Send(InlineAndLargeFrameTests.Pattern(sizes[i], seed: i));
        }

        using var message = new Message();
        for (int i = 0; i < sizes.Length; i++)
        {
            Assert.True(pull.Recv(message));
            Assert.Equal(sizes[i], message.Size);
            Assert.Equal(InlineAndLargeFrameTests.Pattern(sizes[i], seed: i), message.ToArray());
        }
    }

    [Fact]
    public void Received_message_can_be_sent_on_and_then_receive_again()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (first, second) = pair;
        using var message = new Message();

        first.Send("one");
        Assert.True(second.Recv(message));
        Assert.True(second.Send(message));   // echo the same frame back
        Assert.Equal(0, message.Size);
        Assert.Equal("one", first.RecvString());

        first.Send("a much longer second frame that does not fit inline");
        Assert.True(second.Recv(message));
        Assert.Equal("a much longer second frame that does not fit inline", message.ToString());
    }

    [Fact]
    public void More_tells_which_received_frames_have_followers()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (first, second) = pair;
        first.Send("a", SendFlags.SendMore);
        first.Send("b", SendFlags.SendMore);
        first.Send("c");

        using var message = new Message();
        var seen = new List<(string, bool)>();
        for (int i = 0; i < 3; i++)
        {
            second.Recv(message);
            seen.Add((message.ToString(), message.More));
        }

        Assert.Equal([("a", true), ("b", true), ("c", false)], seen);
    }
}
