using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.TimedCalls;

/// <summary>The sends with a TimeSpan: false when the message cannot be queued in time, with nothing queued and nothing lost.</summary>
public class TimedSendTests
{
    private static readonly TimeSpan s_short = TimeSpan.FromMilliseconds(150);

    [Fact]
    public void A_timed_send_with_no_peer_returns_false_after_its_timeout()
    {
        // A PUSH with no connection has nowhere to queue a message.
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        Socket push = pair.Connector;

        var stopwatch = Stopwatch.StartNew();
        Assert.False(push.TrySend("x"u8, s_short));
        Assert.True(stopwatch.Elapsed >= s_short - TimeSpan.FromMilliseconds(15), $"gave up after only {stopwatch.Elapsed}");
        Assert.False(push.TrySend("x", s_short));
        using var message = new Message("x");
        Assert.False(push.TrySend(message, TimeSpan.Zero));
        Assert.True(stopwatch.Elapsed < Timeouts.Wait, $"took {stopwatch.Elapsed}");
    }

    [Fact]
    public void A_message_whose_timed_send_timed_out_keeps_its_content_and_is_sent_later()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new Message("kept through a timeout, longer than thirty-three bytes");

        Assert.False(push.TrySend(message, s_short));
        Assert.Equal("kept through a timeout, longer than thirty-three bytes", message.ToString());

        pair.Connect();
        Assert.True(push.TrySend(message, Timeouts.Wait));
        Assert.Equal(0, message.Size);
        Assert.Equal("kept through a timeout, longer than thirty-three bytes", pull.RecvString());
    }

    [Fact]
    public void A_multipart_message_whose_timed_send_timed_out_keeps_every_frame_and_is_sent_whole_later()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new MultipartMessage { "one", "two", "three" };

        Assert.False(push.TrySendMultipart(message, s_short));
        Assert.Equal(["one", "two", "three"], message.Select(frame => frame.ToString()));

        pair.Connect();
        Assert.True(push.TrySendMultipart(message, Timeouts.Wait));
        Assert.Equal(["one", "two", "three"], Frames.RecvStrings(pull));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task A_timed_send_succeeds_when_a_peer_connects_while_it_waits()
    {
        // The PUSH binds, so that the PULL connects while the PUSH is inside its send (a socket takes one call at a time).
        using var pair = SocketPair.OpenUnconnected(SocketType.Push, SocketType.Pull);
        var (push, pull) = pair;
        Task<bool> send = Waits.StartBlocked(() => push.TrySend("waited", Timeouts.Wait));
        Assert.False(await Waits.FinishesAsync(send, TimeSpan.FromMilliseconds(50)), "the send returned before a peer connected");

        pair.Connect();

        Assert.True(await Waits.FinishesAsync(send), "the send did not return");
        Assert.True(await send);
        Assert.Equal("waited", pull.RecvString());
    }

    [Fact]
    public async Task A_timed_send_times_out_at_the_high_water_mark_and_goes_on_once_the_peer_reads()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (pull, push) =>
        {
            pull.SetOption(SocketOption.ReceiveHighWatermark, 1);
            push.SetOption(SocketOption.SendHighWatermark, 1);
        });
        var (pull, push) = pair;
        int queued = 0;
        while (push.TrySend("fill", TimeSpan.Zero))
        {
            queued++;
            Assert.True(queued < 100, "the high-water mark never stopped the sends");
        }

        Assert.False(push.TrySend("over", s_short, SendFlags.None));

        Task<bool> send = Waits.StartBlocked(() => push.TrySend("last", Timeouts.Wait));
        for (int i = 0; i < queued; i++)
        {
            Assert.Equal("fill", pull.RecvString());
        }

        Assert.True(await Waits.FinishesAsync(send), "the send did not return");
        Assert.True(await send);
        Assert.Equal("last", pull.RecvString());
    }

    [Fact]
    public void Timed_sends_allocate_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        var buffer = new byte[64];
        using var message = new Message();
        Assert.Equal(0, Allocations.Measure(() =>
        {
            Assert.True(push.TrySend(buffer, Timeouts.Wait));
            Assert.True(push.TrySend("text", Timeouts.Wait));
            message.Rebuild(64);
            Assert.True(push.TrySend(message, Timeouts.Wait));
            for (int i = 0; i < 3; i++)
            {
                pull.Recv(buffer);
            }
        }, 1000));
    }
}
