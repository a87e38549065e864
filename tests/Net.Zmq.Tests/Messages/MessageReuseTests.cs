using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class MessageReuseTests : PushPullPerTest
{
    [Fact]
    public void One_message_receives_frames_of_many_different_sizes_in_turn()
    {
        int[] sizes = [0, 1, 33, 34, 5, 100_000, 2, 8192, 0, 33, 1 << 20, 7];
        for (int i = 0; i < sizes.Length; i++)
        {
            Push.Send(InlineAndLargeFrameTests.Pattern(sizes[i], seed: i));
        }

        using var message = new Message();
        for (int i = 0; i < sizes.Length; i++)
        {
            Assert.True(Pull.Recv(message));
            Assert.Equal(sizes[i], message.Size);
            Assert.Equal(InlineAndLargeFrameTests.Pattern(sizes[i], seed: i), message.ToArray());
        }
    }

    [Fact]
    public void Received_message_can_be_sent_on_and_then_receive_again()
    {
        using var message = new Message();

        Push.Send("one");
        Assert.True(Pull.Recv(message));
        Assert.True(Push.Send(message));   // send the received frame on
        Assert.Equal(0, message.Size);
        Assert.Equal("one", Pull.RecvString());

        Push.Send("a much longer second frame that does not fit inline");
        Assert.True(Pull.Recv(message));
        Assert.Equal("a much longer second frame that does not fit inline", message.ToString());
    }

    [Fact]
    public void More_tells_which_received_frames_have_followers()
    {
        Push.Send("a", SendFlags.SendMore);
        Push.Send("b", SendFlags.SendMore);
        Push.Send("c");

        using var message = new Message();
        var seen = new List<(string, bool)>();
        for (int i = 0; i < 3; i++)
        {
            Pull.Recv(message);
            seen.Add((message.ToString(), message.More));
        }

        Assert.Equal([("a", true), ("b", true), ("c", false)], seen);
    }
}
