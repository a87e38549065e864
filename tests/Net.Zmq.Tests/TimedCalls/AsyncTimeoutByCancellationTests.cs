using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.TimedCalls;

/// <summary>The async way to a timeout that docs/async.md shows: a CancellationTokenSource that cancels itself.</summary>
public class AsyncTimeoutByCancellationTests
{
    [Fact]
    public async Task A_receive_given_a_self_cancelling_token_ends_at_the_timeout_and_the_socket_goes_on_receiving()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new Message();

        using (var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(100)))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await pull.RecvAsync(message, cts.Token));
        }

        push.Send("after the timeout");
        using var cts2 = new CancellationTokenSource(Timeouts.Wait);
        await pull.RecvAsync(message, cts2.Token);
        Assert.Equal("after the timeout", message.ToString());
    }

    [Fact]
    public async Task A_send_given_a_self_cancelling_token_ends_at_the_timeout_with_nothing_queued()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;

        using (var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(100)))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await push.SendAsync("never", cts.Token));
        }

        pair.Connect();
        using var cts2 = new CancellationTokenSource(Timeouts.Wait);
        await push.SendAsync("sent", cts2.Token);
        Assert.Equal("sent", await pull.RecvStringAsync(cts2.Token));
        Frames.AssertNothingWaiting(pull);
    }
}
