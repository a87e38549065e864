using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class SendConsumesMessageTests() : PushPullPerTest(inproc: true)
{
    [Theory]
    [InlineData("short")]
    [InlineData("a frame long enough that libzmq keeps it outside the zmq_msg_t structure")]
    public void Send_leaves_the_message_empty_but_not_disposed(string text)
    {
        using var message = new Message(text);

        Assert.True(Push.Send(message));

        Assert.Equal(0, message.Size);
        Assert.Empty(message.ToArray());
        Assert.False(message.IsDisposed);
        Assert.Equal(text, Pull.RecvString());
    }

    [Fact]
    public void Sent_message_can_be_reused_to_receive()
    {
        using var message = new Message("request");
        Push.Send(message);
        Push.Send("next");

        Assert.True(Pull.Recv(message));
        Assert.Equal("request", message.ToString());
        Assert.True(Pull.Recv(message));
        Assert.Equal("next", message.ToString());
    }

    [Fact]
    public void Send_that_cannot_be_queued_under_DontWait_returns_false_and_keeps_the_content()
    {
        using var push = new Socket(Context, SocketType.Push); // no peer: nothing can be queued
        using var message = new Message("kept");

        Assert.False(push.Send(message, SendFlags.DontWait));

        Assert.Equal("kept", message.ToString());
    }

    [Fact]
    public void Send_that_fails_keeps_the_content()
    {
        using var sub = new Socket(Context, SocketType.Sub);
        using var message = new Message("kept");

        Assert.Throws<ZmqException>(() => sub.Send(message));

        Assert.Equal("kept", message.ToString());
    }

    [Fact]
    public void Send_of_a_null_message_throws_ArgumentNullException()
    {
        using var push = new Socket(Context, SocketType.Push);

        Assert.Throws<ArgumentNullException>(() => push.Send((Message)null!));
        Assert.Throws<ArgumentNullException>(() => push.Recv((Message)null!));
    }
}
