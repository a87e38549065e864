using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>Disposing a socket completes its parked receive and send with ObjectDisposedException.</summary>
public sealed class DisposeCompletesPendingTests : ContextPerTest
{
    [Fact]
    public async Task Disposing_the_socket_completes_a_pending_receive_and_send_with_ObjectDisposedException()
    {
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        var dealer = new Socket(Context, SocketType.Dealer);
        dealer.Bind(Endpoints.EphemeralTcp);

        // Unconnected, a DEALER can neither receive nor send: both operations park.
        Task received = dealer.RecvStringAsync(timeout.Token).AsTask();
        Task sent = dealer.SendAsync("never sent", timeout.Token).AsTask();
        Assert.False(received.IsCompleted);
        Assert.False(sent.IsCompleted);

        dealer.Dispose();
        Assert.True(await Waits.FinishesAsync(Task.WhenAll(received, sent)), "a pending operation did not end when the socket was disposed");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => received);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => sent);
    }

    [Fact]
    public void Operations_started_after_dispose_throw_ObjectDisposedException_from_the_call()
    {
        var pull = new Socket(Context, SocketType.Pull);
        using var message = new Message();
        _ = pull.RecvAsync(new byte[1]);
        pull.Dispose();

        Assert.Throws<ObjectDisposedException>(() => { _ = pull.RecvAsync(message); });
        Assert.Throws<ObjectDisposedException>(() => { _ = pull.SendAsync("x"); });
        Assert.Throws<ObjectDisposedException>(() => { _ = pull.RecvStringAsync(); });
        Assert.Throws<ObjectDisposedException>(() => { _ = pull.RecvMultipartAsync(); });
    }

    [Fact]
    public async Task Disposing_many_sockets_with_parked_receives_completes_every_one()
    {
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        var sockets = Enumerable.Range(0, 50).Select(_ => new Socket(Context, SocketType.Pull)).ToArray();
        var receives = sockets.Select(socket => socket.RecvAsync(new byte[4], timeout.Token).AsTask()).ToArray();

        foreach (Socket socket in sockets)
        {
            socket.Dispose();
        }

        Task all = Task.WhenAll(receives);
        Assert.True(await Waits.FinishesAsync(all), "a receive stayed pending after its socket was disposed");
        Assert.All(receives, receive => Assert.IsType<ObjectDisposedException>(receive.Exception?.InnerException));
    }
}
