using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>One receive and one send may be pending per socket; a second in the same direction is rejected, harmlessly.</summary>
public sealed class OnePendingOperationTests
{
    [Fact]
    public async Task A_second_concurrent_receive_throws_and_the_first_still_gets_its_frame()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var message = new Message();
        var buffer = new byte[8];

        ValueTask first = pair.Binder.RecvAsync(message, timeout.Token);
        Assert.Throws<InvalidOperationException>(() => { _ = pair.Binder.RecvAsync(buffer, timeout.Token); });
        Assert.Throws<InvalidOperationException>(() => { _ = pair.Binder.RecvStringAsync(timeout.Token); });
        Assert.Throws<InvalidOperationException>(() => { _ = pair.Binder.RecvMultipartAsync(new MultipartMessage(), timeout.Token); });

        pair.Connector.Send("first");
        pair.Connector.Send("second");
        await first;
        Assert.Equal("first", message.ToString());

        // Once the first was awaited, the socket takes the next receive.
        Assert.Equal(6, await pair.Binder.RecvAsync(buffer, timeout.Token));
    }

    [Fact]
    public async Task A_second_concurrent_send_throws_and_the_first_is_still_delivered_alone()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Push, SocketType.Pull);
        var (push, pull) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);

        ValueTask first = push.SendAsync("first", timeout.Token);
        Assert.False(first.IsCompleted);
        Assert.Throws<InvalidOperationException>(() => { _ = push.SendAsync("second", timeout.Token); });
        Assert.Throws<InvalidOperationException>(() => { _ = push.SendAsync(new byte[] { 2 }, timeout.Token); });
        using var multipart = new MultipartMessage();
        multipart.Add("third");
        Assert.Throws<InvalidOperationException>(() => { _ = push.SendMultipartAsync(multipart, timeout.Token); });
        Assert.Equal("third", multipart[0].ToString());

        pair.Connect();
        await first;
        Assert.Equal("first", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task A_pending_receive_does_not_stop_a_send_on_the_same_socket()
    {
        using var pair = SocketPair.Open(SocketType.Dealer, SocketType.Dealer);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        ValueTask<string> received = pair.Connector.RecvStringAsync(timeout.Token);
        await pair.Connector.SendAsync("ping", timeout.Token);
        Assert.Equal("ping", await pair.Binder.RecvStringAsync(timeout.Token));
        await pair.Binder.SendAsync("pong", timeout.Token);
        Assert.Equal("pong", await received);
    }
}
