using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Bad arguments throw from the call itself, before anything reaches libzmq: no frame is consumed or queued, and
/// an operation already pending is not disturbed.
/// </summary>
public sealed class AsyncArgumentErrorTests : PushPullPerTest
{
    [Fact]
    public async Task Null_receive_arguments_throw_synchronously_and_the_waiting_frame_stays_for_the_next_receive()
    {
        Push.Send("kept");
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvAsync((byte[])null!, Timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvAsync((Message)null!, Timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvMultipartAsync(null!, Timeout.Token); });

        Assert.Equal("kept", await Pull.RecvStringAsync(Timeout.Token));
    }

    [Fact]
    public async Task A_bad_receive_call_leaves_the_pending_receive_to_complete()
    {
        using var message = new Message();
        ValueTask pending = Pull.RecvAsync(message, Timeout.Token);
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvAsync((byte[])null!, Timeout.Token); });

        Push.Send("for the pending one");
        await pending;
        Assert.Equal("for the pending one", message.ToString());
    }

    [Fact]
    public async Task Null_send_arguments_throw_synchronously_and_queue_nothing()
    {
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendAsync((byte[])null!, Timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendAsync((string)null!, Timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendAsync((Message)null!, Timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendMultipartAsync(null!, Timeout.Token); });
        using var empty = new MultipartMessage();
        Assert.Throws<ArgumentException>(() => { _ = Push.SendMultipartAsync(empty, Timeout.Token); });

        await Push.SendAsync("only this", Timeout.Token);
        Assert.Equal(new[] { "only this" }, Frames.RecvStrings(Pull));
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public async Task DontWait_is_an_argument_error_for_every_send_and_queues_nothing()
    {
        using var message = new Message("kept by the caller");
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync(new ReadOnlyMemory<byte>([1]), SendFlags.DontWait, Timeout.Token); });
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync(new byte[] { 1 }, SendFlags.DontWait | SendFlags.SendMore, Timeout.Token); });
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync("text", SendFlags.DontWait, Timeout.Token); });
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync(message, SendFlags.DontWait, Timeout.Token); });
        Assert.Equal("kept by the caller", message.ToString());

        await Push.SendAsync(message, Timeout.Token);
        Assert.Equal(new[] { "kept by the caller" }, Frames.RecvStrings(Pull));
        Frames.AssertNothingWaiting(Pull);
    }
}
