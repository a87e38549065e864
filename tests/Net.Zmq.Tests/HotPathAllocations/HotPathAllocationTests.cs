using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.HotPathAllocations;

/// <summary>
/// The hot paths allocate nothing per message: span and reused-Message sends and receives, and every
/// DontWait/Try path that finds nothing. Measured on the calling thread after a warm-up.
/// </summary>
public sealed class HotPathAllocationTests() : PushPullPerTest(inproc: true)
{
    private const int Iterations = 10_000;

    [Fact]
    public void Span_send_and_receive_allocate_nothing()
    {
        byte[] payload = new byte[64];
        byte[] buffer = new byte[64];
        void RoundTrip()
        {
            Push.Send(payload.AsSpan());
            Pull.Recv(buffer.AsSpan());
        }

        Assert.Equal(0, AllocatedBy(RoundTrip));
    }

    [Fact]
    public void String_send_allocates_nothing()
    {
        byte[] buffer = new byte[64];
        void RoundTrip()
        {
            Push.Send("a short text frame");
            Pull.Recv(buffer);
        }

        Assert.Equal(0, AllocatedBy(RoundTrip));
    }

    [Fact]
    public void Reused_message_receive_and_forward_allocate_nothing()
    {
        using var message = new Message();
        Push.Send(new byte[200]);
        void Forward()
        {
            // Receive into the same Message, then send it on: the content moves, nothing is allocated.
            Pull.Recv(message);
            Push.Send(message);
        }

        Assert.Equal(0, AllocatedBy(Forward));
    }

    [Fact]
    public void DontWait_and_Try_paths_that_find_nothing_allocate_nothing()
    {
        byte[] buffer = new byte[16];
        using var message = new Message();
        int found = 0;
        void TryAll()
        {
            // Assertions stay outside the measured code: xunit's Assert.Equal allocates.
            if (Pull.Recv(buffer, RecvFlags.DontWait) != -1) { found++; }
            if (Pull.TryRecv(buffer, out _)) { found++; }
            if (Pull.TryRecv(message)) { found++; }
            if (Pull.TryRecvString(out _)) { found++; }
            if (Pull.TryRecvMultipart(out _)) { found++; }
        }

        Assert.Equal(0, AllocatedBy(TryAll));
        Assert.Equal(0, found);
    }

    [Fact]
    public void DontWait_send_at_the_high_water_mark_returns_false_without_allocating()
    {
        using var push = new Socket(Context, SocketType.Push);
        push.SetOption(SocketOption.SendHighWatermark, 1);
        push.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Immediate, true); // no queue until a peer is connected, and none will be
        push.Connect("tcp://127.0.0.1:1");
        byte[] payload = new byte[8];
        int queued = 0;
        void TrySend()
        {
            if (push.Send(payload, SendFlags.DontWait)) { queued++; }
        }

        Assert.Equal(0, AllocatedBy(TrySend));
        Assert.Equal(0, queued);
    }

    private static long AllocatedBy(Action operation) => Allocations.Measure(operation, Iterations);
}
