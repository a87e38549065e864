using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Errors;

public class SocketTypeErrorTests : ContextPerTest
{
    [Theory]
    [InlineData(SocketType.Pub)]
    [InlineData(SocketType.Push)]
    public void Recv_on_a_send_only_socket_throws_ENOTSUP(SocketType type)
    {
        using var socket = new Socket(Context, type);

        var bytes = Assert.Throws<ZmqException>(() => socket.Recv(new byte[16]));
        var message = Assert.Throws<ZmqException>(() => socket.Recv());
        var text = Assert.Throws<ZmqException>(() => socket.RecvString());

        Assert.Equal(ZmqError.ENOTSUP, bytes.ErrorNumber);
        Assert.Equal(ZmqError.ENOTSUP, message.ErrorNumber);
        Assert.Equal(ZmqError.ENOTSUP, text.ErrorNumber);
    }

    [Theory]
    [InlineData(SocketType.Sub)]
    [InlineData(SocketType.Pull)]
    public void Send_on_a_receive_only_socket_throws_ENOTSUP(SocketType type)
    {
        using var socket = new Socket(Context, type);

        var text = Assert.Throws<ZmqException>(() => socket.Send("x"));
        var bytes = Assert.Throws<ZmqException>(() => socket.Send(new byte[] { 1 }));
        using var frame = new Message("x");
        var message = Assert.Throws<ZmqException>(() => socket.Send(frame));

        Assert.Equal(ZmqError.ENOTSUP, text.ErrorNumber);
        Assert.Equal(ZmqError.ENOTSUP, bytes.ErrorNumber);
        Assert.Equal(ZmqError.ENOTSUP, message.ErrorNumber);
        Assert.Contains("does not support", text.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Req_sending_twice_without_a_reply_throws_EFSM()
    {
        using Socket req = Sockets.New(Context, SocketType.Req);
        req.Connect(Endpoints.NewInproc()); // a REQ queues its request while its peer is not there yet
        req.Send("first");

        var ex = Assert.Throws<ZmqException>(() => req.Send("second"));

        Assert.Equal(ZmqError.EFSM, ex.ErrorNumber);
    }

    [Fact]
    public void Rep_sending_before_it_received_throws_EFSM()
    {
        using var rep = new Socket(Context, SocketType.Rep);

        var ex = Assert.Throws<ZmqException>(() => rep.Send("unsolicited"));

        Assert.Equal(ZmqError.EFSM, ex.ErrorNumber);
    }

    [Fact]
    public void Req_receiving_before_it_sent_throws_EFSM()
    {
        using var req = new Socket(Context, SocketType.Req);

        var ex = Assert.Throws<ZmqException>(() => req.Recv(new byte[8]));

        Assert.Equal(ZmqError.EFSM, ex.ErrorNumber);
    }

    [Fact]
    public void Receive_timeout_throws_EAGAIN_and_DontWait_returns_nothing()
    {
        using var pull = new Socket(Context, SocketType.Pull);
        pull.Bind(Endpoints.NewInproc());
        pull.SetOption(SocketOption.ReceiveTimeout, 10);

        var ex = Assert.Throws<ZmqException>(() => pull.RecvString());

        Assert.Equal(ZmqError.EAGAIN, ex.ErrorNumber);
        Assert.Contains("ReceiveTimeout", ex.Message, StringComparison.Ordinal);
        Assert.Equal(-1, pull.Recv(new byte[4], RecvFlags.DontWait));
        Assert.False(pull.TryRecvString(out string? text));
        Assert.Null(text);
    }

    [Fact]
    public void Send_timeout_throws_EAGAIN_and_DontWait_returns_false()
    {
        using var push = new Socket(Context, SocketType.Push); // no peer: nothing can be queued
        push.SetOption(SocketOption.SendTimeout, 10);

        var ex = Assert.Throws<ZmqException>(() => push.Send("stuck"));

        Assert.Equal(ZmqError.EAGAIN, ex.ErrorNumber);
        Assert.Contains("SendTimeout", ex.Message, StringComparison.Ordinal);
        Assert.False(push.Send("stuck", SendFlags.DontWait));
    }

    [Fact]
    public void Zmq_errors_are_ZmqException_and_not_the_ETERM_subclass()
    {
        using var pub = new Socket(Context, SocketType.Pub);

        var ex = Assert.ThrowsAny<ZmqException>(() => pub.RecvBytes());

        Assert.IsType<ZmqException>(ex);
        Assert.Equal(ZmqError.ENOTSUP, ex.ErrorNumber);
    }
}
