using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class RecvTimeoutTests : ContextPerTest
{
    private const int TimeoutMs = 100;

    public static TheoryData<string> BlockingReceives =>
    [
        "Recv(Span<byte>)",
        "Recv(byte[])",
        "Recv(nint, int)",
        "Recv(Message)",
        "Recv()",
        "RecvBytes()",
        "RecvString()",
        "RecvMultipart()",
        "RecvMultipart(MultipartMessage)",
    ];

    private static unsafe void Receive(Socket socket, string operation)
    {
        var buffer = new byte[16];
        switch (operation)
        {
            case "Recv(Span<byte>)":
                socket.Recv(buffer.AsSpan());
                break;
            case "Recv(byte[])":
                socket.Recv(buffer);
                break;
            case "Recv(nint, int)":
                fixed (byte* p = buffer)
                {
                    socket.Recv((nint)p, buffer.Length);
                }

                break;
            case "Recv(Message)":
                using (var message = new Message())
                {
                    socket.Recv(message);
                }

                break;
            case "Recv()":
                socket.Recv().Dispose();
                break;
            case "RecvBytes()":
                socket.RecvBytes();
                break;
            case "RecvString()":
                socket.RecvString();
                break;
            case "RecvMultipart()":
                socket.RecvMultipart().Dispose();
                break;
            case "RecvMultipart(MultipartMessage)":
                using (var multipart = new MultipartMessage())
                {
                    socket.RecvMultipart(multipart);
                }

                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(operation), operation, null);
        }
    }

    [Theory]
    [MemberData(nameof(BlockingReceives))]
    public void Blocking_receive_that_hits_the_receive_timeout_throws_EAGAIN(string operation)
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        pull.SetOption(SocketOption.ReceiveTimeout, TimeoutMs);
        Endpoints.BindInproc(pull);

        var clock = Stopwatch.StartNew();
        var error = Assert.Throws<ZmqException>(() => Receive(pull, operation));
        clock.Stop();

        Assert.Equal(ZmqError.EAGAIN, error.ErrorNumber);
        Assert.IsNotType<ContextTerminatedException>(error);
        Assert.True(clock.ElapsedMilliseconds >= TimeoutMs / 2, $"gave up after {clock.ElapsedMilliseconds} ms");
    }

    [Fact]
    public void Socket_still_receives_after_a_receive_timed_out()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        using Socket push = Sockets.New(Context, SocketType.Push);
        pull.SetOption(SocketOption.ReceiveTimeout, TimeSpan.FromMilliseconds(TimeoutMs));
        push.Connect(Endpoints.BindInproc(pull));

        var error = Assert.Throws<ZmqException>(() => pull.RecvString());
        Assert.Equal(ZmqError.EAGAIN, error.ErrorNumber);

        Assert.True(push.Send("late"));
        Assert.Equal("late", pull.RecvString());
    }
}
