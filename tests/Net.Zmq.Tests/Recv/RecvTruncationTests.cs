using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

/// <summary>A frame received into a buffer of another size: the call returns the frame's size, keeps what fits and drops the rest.</summary>
public class RecvTruncationTests
{
    private static byte[] Pattern(int size, int seed = 1) => Enumerable.Range(0, size).Select(i => (byte)(i * 31 + seed)).ToArray();

    [Theory]
    [InlineData(100, 10, false)] // truncated
    [InlineData(100, 100, false)] // exactly sized
    [InlineData(40, 100, false)] // larger: the tail is untouched
    [InlineData(33, 0, false)] // empty: only the size is reported
    [InlineData(1 << 20, 256, true)] // a large frame over tcp
    public void Recv_returns_the_frame_size_and_keeps_as_much_of_the_frame_as_the_buffer_holds(int frameSize, int bufferSize, bool tcp)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: !tcp);
        var (pull, push) = pair;
        byte[] frame = Pattern(frameSize);
        int kept = Math.Min(frameSize, bufferSize);
        Assert.True(push.Send(frame));
        Assert.True(push.Send(frame));

        // Once into a span, once into an array; what lies past the frame keeps its 0xEE.
        byte[] viaSpan = Enumerable.Repeat((byte)0xEE, bufferSize).ToArray();
        byte[] viaArray = Enumerable.Repeat((byte)0xEE, bufferSize).ToArray();
        Assert.Equal(frameSize, pull.Recv(viaSpan.AsSpan()));
        Assert.Equal(frameSize, pull.Recv(viaArray));

        foreach (byte[] buffer in new[] { viaSpan, viaArray })
        {
            Assert.Equal(frame[..kept], buffer[..kept]);
            Assert.All(buffer[kept..], b => Assert.Equal(0xEE, b));
        }

        Frames.AssertNothingWaiting(pull); // the truncated rest of each frame went with it
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
}
