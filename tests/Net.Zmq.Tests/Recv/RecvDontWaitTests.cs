using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class RecvDontWaitTests : ContextPerTest
{
    [Fact]
    public void Every_non_blocking_receive_on_an_empty_socket_reports_nothing_without_throwing()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(pull);

        var buffer = new byte[16];
        Assert.Equal(-1, pull.Recv(buffer.AsSpan(), RecvFlags.DontWait));
        Assert.Equal(-1, pull.Recv(buffer, RecvFlags.DontWait));

        Assert.False(pull.TryRecv(buffer, out int size));
        Assert.Equal(0, size);

        using var message = new Message("left alone");
        Assert.False(pull.Recv(message, RecvFlags.DontWait));
        Assert.False(pull.TryRecv(message));

        Assert.False(pull.TryRecvString(out string? text));
        Assert.Null(text);

        using var multipart = new MultipartMessage();
        Assert.False(pull.RecvMultipart(multipart, RecvFlags.DontWait));
        Assert.Empty(multipart);
        Assert.False(pull.TryRecvMultipart(out MultipartMessage? received));
        Assert.Null(received);
    }

    [Fact]
    public void Recv_into_native_memory_with_dont_wait_on_an_empty_socket_returns_minus_one()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(pull);

        unsafe
        {
            byte* buffer = stackalloc byte[16];
            Assert.Equal(-1, pull.Recv((nint)buffer, 16, RecvFlags.DontWait));
        }
    }

    [Fact]
    public void Non_blocking_receive_returns_a_frame_that_is_waiting()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Assert.True(push.Send("ready"));

        // Wait for the frame with a poll, then take it without blocking.
        Frames.AwaitWaiting(pull);

        var buffer = new byte[16];
        Assert.Equal(5, pull.Recv(buffer, RecvFlags.DontWait));
        Assert.Equal("ready"u8.ToArray(), buffer[..5]);
        Assert.Equal(-1, pull.Recv(buffer, RecvFlags.DontWait));
    }
}
