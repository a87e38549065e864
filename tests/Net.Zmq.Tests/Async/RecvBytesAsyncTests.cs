using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>RecvBytesAsync: the frame as a new array, whether it was waiting or arrives later; cancellation consumes nothing.</summary>
public sealed class RecvBytesAsyncTests : PushPullPerTest
{
    [Fact]
    public async Task RecvBytesAsync_returns_a_waiting_frame_and_one_that_arrives_later()
    {
        Push.Send(new byte[] { 1, 2, 3 });
        Assert.Equal(new byte[] { 1, 2, 3 }, await Pull.RecvBytesAsync(Timeout.Token));

        ValueTask<byte[]> later = Pull.RecvBytesAsync(Timeout.Token);
        Push.Send(new byte[5000]);
        Assert.Equal(5000, (await later).Length);
    }

    [Fact]
    public async Task A_cancelled_RecvBytesAsync_consumes_nothing()
    {
        using var cancel = new CancellationTokenSource();
        ValueTask<byte[]> pending = Pull.RecvBytesAsync(cancel.Token);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await pending);

        Push.Send("next");
        Assert.Equal("next"u8.ToArray(), await Pull.RecvBytesAsync(Timeout.Token));
    }
}
