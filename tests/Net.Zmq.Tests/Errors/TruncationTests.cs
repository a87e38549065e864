using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Errors;

public class TruncationTests
{
    [Fact]
    public void Frame_larger_than_the_buffer_reports_its_full_size_and_fills_the_buffer()
    {
        using var context = new Context();
        using Pair pair = Connected(context);
        (Socket push, Socket pull) = pair;
        push.Send("0123456789");
        var buffer = new byte[4];

        int size = pull.Recv(buffer);

        Assert.Equal(10, size);
        Assert.True(size > buffer.Length);
        Assert.Equal("0123"u8.ToArray(), buffer);
    }

    [Fact]
    public void TryRecv_reports_truncation_through_the_size()
    {
        using var context = new Context();
        using Pair pair = Connected(context);
        (Socket push, Socket pull) = pair;
        push.Send(new byte[100]);
        Span<byte> buffer = stackalloc byte[10];

        Assert.True(WaitThenTryRecv(pull, buffer, out int size));

        Assert.Equal(100, size);
    }

    [Fact]
    public void Rest_of_a_truncated_frame_is_discarded_and_the_next_frame_is_whole()
    {
        using var context = new Context();
        using Pair pair = Connected(context);
        (Socket push, Socket pull) = pair;
        push.Send("first frame, too long");
        push.Send("second");
        var buffer = new byte[6];

        Assert.Equal(21, pull.Recv(buffer));
        Assert.Equal(6, pull.Recv(buffer));

        Assert.Equal("second"u8.ToArray(), buffer);
    }

    [Fact]
    public void Frame_that_fits_reports_its_exact_size()
    {
        using var context = new Context();
        using Pair pair = Connected(context);
        (Socket push, Socket pull) = pair;
        push.Send("abc");
        var buffer = new byte[64];

        Assert.Equal(3, pull.Recv(buffer));
    }

    [Fact]
    public void Receive_into_an_empty_buffer_reports_the_frame_size()
    {
        using var context = new Context();
        using Pair pair = Connected(context);
        (Socket push, Socket pull) = pair;
        push.Send("abc");

        Assert.Equal(3, pull.Recv(Span<byte>.Empty));
    }

    private static bool WaitThenTryRecv(Socket socket, Span<byte> buffer, out int size)
    {
        using var poller = new Poller();
        poller.Add(socket, PollEvents.In);
        Assert.Equal(1, poller.Poll(Waits.Event));
        return socket.TryRecv(buffer, out size);
    }

    private static Pair Connected(Context context)
    {
        var push = new Socket(context, SocketType.Push).WithTimeouts();
        var pull = new Socket(context, SocketType.Pull).WithTimeouts();
        string endpoint = Endpoints.UniqueInproc();
        pull.Bind(endpoint);
        push.Connect(endpoint);
        return new Pair(push, pull);
    }

    private readonly record struct Pair(Socket Push, Socket Pull) : IDisposable
    {
        public void Dispose()
        {
            Push.Dispose();
            Pull.Dispose();
        }
    }
}
