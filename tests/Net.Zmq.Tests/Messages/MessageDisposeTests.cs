using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class MessageDisposeTests : ContextPerTest
{
    [Fact]
    public void Dispose_twice_is_harmless()
    {
        var message = new Message("twice");

        message.Dispose();
        message.Dispose();

        Assert.True(message.IsDisposed);
    }

    [Fact]
    public void Dispose_after_send_is_harmless()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        var message = new Message(new byte[1000]);
        push.Send(message);

        message.Dispose();
        message.Dispose();

        Assert.True(message.IsDisposed);
        Assert.Equal(1000, pull.RecvBytes().Length);
    }

    [Fact]
    public void Every_member_of_a_disposed_message_throws_ObjectDisposedException()
    {
        var message = new Message("gone");
        using var other = new Message("other");
        message.Dispose();

        Assert.Throws<ObjectDisposedException>(() => message.Data.Length);
        Assert.Throws<ObjectDisposedException>(() => message.Size);
        Assert.Throws<ObjectDisposedException>(() => message.More);
        Assert.Throws<ObjectDisposedException>(() => message.ToArray());
        Assert.Throws<ObjectDisposedException>(() => message.GetMetadata("Socket-Type"));
        Assert.Throws<ObjectDisposedException>(() => message.Copy(other));
        Assert.Throws<ObjectDisposedException>(() => message.Move(other));
        Assert.Equal("(disposed message)", message.ToString());
    }

    [Fact]
    public void Sending_or_receiving_into_a_disposed_message_throws_ObjectDisposedException()
    {
        using var pair = new Socket(Context, SocketType.Pair);
        var message = new Message("gone");
        message.Dispose();

        Assert.Throws<ObjectDisposedException>(() => pair.Send(message));
        Assert.Throws<ObjectDisposedException>(() => pair.Recv(message));
        Assert.Throws<ObjectDisposedException>(() => pair.TryRecv(message));
    }
}
