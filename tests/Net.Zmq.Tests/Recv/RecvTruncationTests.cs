using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class RecvTruncationTests
{
    private static byte[] Pattern(int size, int seed = 1) => Enumerable.Range(0, size).Select(i => (byte)(i * 31 + seed)).ToArray();

    [Fact]
    public void Recv_of_a_100_byte_frame_into_a_10_byte_buffer_returns_100_and_keeps_the_first_10_bytes()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        byte[] frame = Pattern(100);
        Assert.True(push.Send(frame));

        var buffer = new byte[10];
        int size = pull.Recv(buffer.AsSpan());

        Assert.Equal(100, size);
        Assert.Equal(frame[..10], buffer);
    }

    [Fact]
    public void Truncated_rest_of_the_frame_is_discarded_and_the_next_frame_arrives_whole()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        byte[] first = Pattern(100, seed: 1);
        byte[] second = Pattern(20, seed: 2);
        Assert.True(push.Send(first));
        Assert.True(push.Send(second));

        var small = new byte[10];
        Assert.Equal(100, pull.Recv(small));
        Assert.Equal(first[..10], small);

        var buffer = new byte[64];
        Assert.Equal(20, pull.Recv(buffer));
        Assert.Equal(second, buffer[..20]);
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void Recv_into_an_exactly_sized_buffer_returns_exactly_the_frame_size()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        byte[] frame = Pattern(100);
        Assert.True(push.Send(frame));

        var buffer = new byte[100];
        Assert.Equal(100, pull.Recv(buffer));
        Assert.Equal(frame, buffer);
    }

    [Fact]
    public void Recv_into_a_larger_buffer_returns_the_frame_size_and_leaves_the_tail_untouched()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        byte[] frame = Pattern(40);
        Assert.True(push.Send(frame));

        var buffer = new byte[100];
        buffer.AsSpan().Fill(0xEE);
        Assert.Equal(40, pull.Recv(buffer.AsSpan()));
        Assert.Equal(frame, buffer[..40]);
        Assert.All(buffer[40..], b => Assert.Equal(0xEE, b));
    }

    [Fact]
    public void Recv_into_an_empty_buffer_still_reports_the_frame_size_and_consumes_the_frame()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Assert.True(push.Send(Pattern(33)));

        Assert.Equal(33, pull.Recv(Span<byte>.Empty));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void TryRecv_reports_the_full_size_of_a_truncated_frame()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        byte[] frame = Pattern(100);
        Assert.True(push.Send(frame));

        var buffer = new byte[10];
        Assert.True(pull.TryRecv(buffer, out int size));
        Assert.Equal(100, size);
        Assert.Equal(frame[..10], buffer);
    }

    [Fact]
    public void Recv_reports_the_true_size_of_a_large_frame_over_tcp()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        byte[] frame = Pattern(1 << 20);
        Assert.True(push.Send(frame));

        var buffer = new byte[256];
        Assert.Equal(1 << 20, pull.Recv(buffer));
        Assert.Equal(frame[..256], buffer);
    }
}
