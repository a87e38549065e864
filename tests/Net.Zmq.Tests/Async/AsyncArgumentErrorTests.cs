using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Bad arguments throw from the call itself, before anything reaches libzmq: no frame is consumed or queued, and
/// an operation already pending is not disturbed.
/// </summary>
public sealed class AsyncArgumentErrorTests : IDisposable
{
    private readonly ConnectedPair _pair = ConnectedPair.Open(SocketType.Pull, SocketType.Push);
    private readonly CancellationTokenSource _timeout = new(Waits.Event);

    public AsyncArgumentErrorTests() => _pair.Binder.WithTimeouts();

    private Socket Push => _pair.Connector;

    private Socket Pull => _pair.Binder;

    public void Dispose()
    {
        _timeout.Dispose();
        _pair.Dispose();
    }

    [Fact]
    public async Task Null_receive_arguments_throw_synchronously_and_the_waiting_frame_stays_for_the_next_receive()
    {
        Push.Send("kept");
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvAsync((byte[])null!, _timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvAsync((Message)null!, _timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvMultipartAsync(null!, _timeout.Token); });

        Assert.Equal("kept", await Pull.RecvStringAsync(_timeout.Token));
    }

    [Fact]
    public async Task A_bad_receive_call_leaves_the_pending_receive_to_complete()
    {
        using var message = new Message();
        ValueTask pending = Pull.RecvAsync(message, _timeout.Token);
        Assert.Throws<ArgumentNullException>(() => { _ = Pull.RecvAsync((byte[])null!, _timeout.Token); });

        Push.Send("for the pending one");
        await pending;
        Assert.Equal("for the pending one", message.ToString());
    }

    [Fact]
    public async Task Null_send_arguments_throw_synchronously_and_queue_nothing()
    {
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendAsync((byte[])null!, _timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendAsync((string)null!, _timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendAsync((Message)null!, _timeout.Token); });
        Assert.Throws<ArgumentNullException>(() => { _ = Push.SendMultipartAsync(null!, _timeout.Token); });
        using var empty = new MultipartMessage();
        Assert.Throws<ArgumentException>(() => { _ = Push.SendMultipartAsync(empty, _timeout.Token); });

        await Push.SendAsync("only this", _timeout.Token);
        Assert.Equal(new[] { "only this" }, SocketKit.RecvStrings(Pull));
        SocketKit.AssertNothingWaiting(Pull);
    }

    [Fact]
    public async Task DontWait_is_an_argument_error_for_every_send_and_queues_nothing()
    {
        using var message = new Message("kept by the caller");
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync(new ReadOnlyMemory<byte>([1]), SendFlags.DontWait, _timeout.Token); });
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync(new byte[] { 1 }, SendFlags.DontWait | SendFlags.SendMore, _timeout.Token); });
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync("text", SendFlags.DontWait, _timeout.Token); });
        Assert.Throws<ArgumentException>(() => { _ = Push.SendAsync(message, SendFlags.DontWait, _timeout.Token); });
        Assert.Equal("kept by the caller", message.ToString());

        await Push.SendAsync(message, _timeout.Token);
        Assert.Equal(new[] { "kept by the caller" }, SocketKit.RecvStrings(Pull));
        SocketKit.AssertNothingWaiting(Pull);
    }
}
