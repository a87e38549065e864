using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Send;

/// <summary>
/// A send that cannot queue now returns false under DontWait, at once and without an exception: EAGAIN is a result,
/// not an error; and nothing is lost: the frame goes out when it is sent again once a peer is there.
/// </summary>
public sealed class SendDontWaitTests
{
    [Theory]
    [MemberData(nameof(SendOverloads.Names), MemberType = typeof(SendOverloads))]
    public void Each_overload_returns_false_at_once_when_no_peer_can_take_the_frame(string overload)
    {
        // A PUSH with no connection has nowhere to queue a frame.
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        var stopwatch = Stopwatch.StartNew();

        Assert.False(SendOverloads.Send(overload, push, "not queued"u8.ToArray(), SendFlags.DontWait));

        Assert.True(stopwatch.Elapsed < Timeouts.Wait / 5, $"a DontWait send took {stopwatch.Elapsed}");
        pair.Connect();
        Assert.True(SendOverloads.Send(overload, push, "queued"u8.ToArray()));
        Assert.Equal("queued", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void A_message_whose_send_would_block_keeps_its_content_and_goes_out_later()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new Message("kept, and longer than the thirty-three bytes kept inline");

        Assert.False(push.Send(message, SendFlags.DontWait));
        Assert.Equal("kept, and longer than the thirty-three bytes kept inline", message.ToString());

        pair.Connect();
        Assert.True(push.Send(message));
        Assert.Equal(0, message.Size);
        Assert.Equal("kept, and longer than the thirty-three bytes kept inline", pull.RecvString());
    }

    [Fact]
    public void A_full_queue_refuses_under_DontWait_and_takes_the_frame_once_the_peer_reads()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (pull, push) =>
        {
            pull.SetOption(SocketOption.ReceiveHighWatermark, 1);
            push.SetOption(SocketOption.SendHighWatermark, 1);
        });
        var (pull, push) = pair;

        int queued = 0;
        while (push.Send("fill"u8, SendFlags.DontWait))
        {
            Assert.True(++queued < 100, "the high water marks of 1 never filled");
        }

        Assert.Equal("fill", pull.RecvString());
        Assert.True(push.Send("after", SendFlags.None));
        for (int i = 1; i < queued; i++)
        {
            Assert.Equal("fill", pull.RecvString());
        }

        Assert.Equal("after", pull.RecvString());
    }
}
