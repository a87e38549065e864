using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>An operation completed by cancellation frees its direction even if nobody awaits its ValueTask.</summary>
public sealed class CancelledNeverAwaitedTests
{
    [Fact]
    public async Task A_cancelled_receive_that_is_never_awaited_does_not_block_the_next_receive()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var cancel = new CancellationTokenSource();
        ValueTask<int> abandoned = pair.Binder.RecvAsync(new byte[16], cancel.Token);
        Assert.False(abandoned.IsCompleted);
        await cancel.CancelAsync();
        Assert.True(SpinWait.SpinUntil(() => abandoned.IsCompleted, Timeouts.Wait), "the cancelled receive never completed");

        // The cancelled ValueTask is never awaited.
        Task<string> received = pair.Binder.RecvStringAsync(timeout.Token).AsTask();
        pair.Connector.Send("after the abandoned one");
        Assert.True(await Waits.FinishesAsync(received), "the next receive never completed");
        Assert.Equal("after the abandoned one", await received);
    }

    [Fact]
    public async Task A_cancelled_send_that_is_never_awaited_does_not_block_the_next_send()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Push, SocketType.Pull);
        var (push, pull) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var cancel = new CancellationTokenSource();
        ValueTask abandoned = push.SendAsync("cancelled", cancel.Token);
        Assert.False(abandoned.IsCompleted);
        await cancel.CancelAsync();
        Assert.True(SpinWait.SpinUntil(() => abandoned.IsCompleted, Timeouts.Wait), "the cancelled send never completed");

        Task sent = push.SendAsync("delivered", timeout.Token).AsTask();
        pair.Connect();
        Assert.True(await Waits.FinishesAsync(sent), "the next send never completed");
        Assert.Equal("delivered", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }
}
