using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class RecvMessageTests
{
    private static byte[] Pattern(int size) => Enumerable.Range(0, size).Select(i => (byte)(i * 13 + 5)).ToArray();

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(33)]
    [InlineData(34)]
    [InlineData(100)]
    [InlineData(1 << 20)]
    public void Recv_into_a_message_gets_the_whole_frame(int size)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        byte[] frame = Pattern(size);
        Assert.True(push.Send(frame));

        using var message = new Message();
        Assert.True(pull.Recv(message));

        Assert.Equal(size, message.Size);
        Assert.Equal(frame, message.ToArray());
        Assert.True(frame.AsSpan().SequenceEqual(message.Data));
        Assert.False(message.More);
    }

    [Fact]
    public void One_message_reused_across_receives_of_different_sizes_holds_each_frame_in_turn()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        int[] sizes = [5, 70_000, 0, 12, 300];
        foreach (int size in sizes)
        {
            Assert.True(push.Send(Pattern(size)));
        }

        using var message = new Message();
        foreach (int size in sizes)
        {
            Assert.True(pull.Recv(message));
            Assert.Equal(Pattern(size), message.ToArray());
        }
    }

    [Fact]
    public void Recv_without_arguments_returns_a_new_message_per_frame()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Assert.True(push.Send("first"));
        Assert.True(push.Send("second"));

        using Message first = pull.Recv();
        using Message second = pull.Recv();

        Assert.NotSame(first, second);
        Assert.Equal("first", first.ToString());
        Assert.Equal("second", second.ToString());
    }

    [Fact]
    public void Recv_of_a_multipart_frame_by_frame_reports_more_on_each_but_the_last()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Frames.SendStrings(push, "a", "b", "c");

        using var message = new Message();
        Assert.True(pull.Recv(message));
        Assert.Equal("a", message.ToString());
        Assert.True(message.More);
        Assert.True(pull.HasMore);

        Assert.Equal("b", pull.RecvString());
        Assert.True(pull.HasMore);

        Assert.Equal("c"u8.ToArray(), pull.RecvBytes());
        Assert.False(pull.HasMore);
    }

    [Fact]
    public void Small_received_frame_stays_readable_through_its_data_span_when_the_gc_moves_the_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Assert.True(push.Send("inline bytes"));

        using var message = new Message();
        Assert.True(pull.Recv(message));
        Span<byte> data = message.Data;

        // Churn and compact the heap so the young message object is relocated while the span is live.
        for (int i = 0; i < 1000; i++)
        {
            GC.KeepAlive(new byte[256]);
        }

        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);

        Assert.Equal("inline bytes"u8.ToArray(), data.ToArray());
        Assert.Equal("inline bytes", message.ToString());
    }
}
