using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>A send that cannot be queued waits without a thread and completes once the socket can take it.</summary>
public sealed class ParkedSendTests : ContextPerTest
{
    [Fact]
    public async Task A_push_without_a_peer_parks_its_send_until_a_peer_connects()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Push, SocketType.Pull);
        var (push, pull) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);

        ValueTask sent = push.SendAsync("waited for a peer", timeout.Token);
        Assert.False(sent.IsCompleted);

        pair.Connect();
        Assert.True(await Waits.FinishesAsync(sent.AsTask()), "the send never completed after the peer connected");
        Assert.Equal("waited for a peer", pull.RecvString());
    }

    [Fact]
    public async Task A_send_parked_at_the_high_water_mark_completes_when_the_peer_reads_and_its_frame_comes_last()
    {
        using var push = new Socket(Context, SocketType.Push);
        using var pull = Sockets.New(Context, SocketType.Pull);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        push.SetOption(SocketOption.SendHighWatermark, 2);
        pull.SetOption(SocketOption.ReceiveHighWatermark, 2);
        pull.Connect(Endpoints.BindInproc(push));

        int queued = 0;
        while (push.Send($"frame {queued}", SendFlags.DontWait))
        {
            queued++;
            Assert.True(queued < 100, "the high-water mark was never reached");
        }

        ValueTask sent = push.SendAsync("the parked one", timeout.Token);
        Assert.False(sent.IsCompleted);

        Task completion = sent.AsTask();
        for (int i = 0; i < queued; i++)
        {
            Assert.Equal($"frame {i}", pull.RecvString());
        }

        Assert.True(await Waits.FinishesAsync(completion), "the send never completed after the peer read");
        Assert.Equal("the parked one", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task A_multipart_send_parked_without_a_peer_arrives_whole()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Dealer, SocketType.Router);
        var (dealer, router) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        message.Add("c");

        ValueTask sent = dealer.SendMultipartAsync(message, timeout.Token);
        Assert.False(sent.IsCompleted);

        pair.Connect();
        Assert.True(await Waits.FinishesAsync(sent.AsTask()), "the multipart send never completed");
        string[] frames = Frames.RecvStrings(router);
        Assert.Equal(new[] { "a", "b", "c" }, frames[1..]);
    }
}
