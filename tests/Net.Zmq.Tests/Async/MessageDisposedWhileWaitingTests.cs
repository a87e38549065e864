using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A Message or MultipartMessage disposed while its async operation waits: the operation fails with
/// ObjectDisposedException, libzmq never sees the closed message, and nothing is sent.
/// </summary>
public sealed class MessageDisposedWhileWaitingTests
{
    [Fact]
    public async Task A_message_disposed_while_its_send_waits_fails_the_send_and_sends_nothing()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Push, SocketType.Pull);
        var (push, pull) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);

        var message = new Message("disposed while waiting"u8);
        Task sent = push.SendAsync(message, timeout.Token).AsTask();
        Assert.False(sent.IsCompleted);
        message.Dispose();

        pair.Connect();
        Assert.True(await Waits.FinishesAsync(sent), "the send of a disposed message never completed");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => sent);

        // The socket is usable, and what arrives first is the next message: nothing of the disposed one.
        await push.SendAsync("next", timeout.Token);
        Assert.Equal("next", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task A_multipart_message_disposed_while_its_send_waits_fails_the_send_and_sends_nothing()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Dealer, SocketType.Router);
        var (dealer, router) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);

        var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        Task sent = dealer.SendMultipartAsync(message, timeout.Token).AsTask();
        Assert.False(sent.IsCompleted);
        message.Dispose();

        pair.Connect();
        Assert.True(await Waits.FinishesAsync(sent), "the send of a disposed multipart message never completed");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => sent);

        await dealer.SendAsync("next", timeout.Token);
        string[] frames = Frames.RecvStrings(router);
        Assert.Equal(new[] { "next" }, frames[1..]);
        Frames.AssertNothingWaiting(router);
    }

    [Fact]
    public async Task A_message_disposed_while_a_receive_into_it_waits_fails_the_receive_and_consumes_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        var message = new Message();
        Task received = pair.Binder.RecvAsync(message, timeout.Token).AsTask();
        Assert.False(received.IsCompleted);
        message.Dispose();

        pair.Connector.Send("kept");
        Assert.True(await Waits.FinishesAsync(received), "the receive into a disposed message never completed");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => received);
        Assert.Equal("kept", await pair.Binder.RecvStringAsync(timeout.Token));
    }
}
