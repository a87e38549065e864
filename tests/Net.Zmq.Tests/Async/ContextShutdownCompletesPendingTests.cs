using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>Shutting the context down (or disposing it) completes parked operations with ContextTerminatedException.</summary>
public sealed class ContextShutdownCompletesPendingTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Context_shutdown_completes_a_pending_receive_and_send_with_ContextTerminatedException(bool disposeContext)
    {
        Context context = Sockets.NewContext();
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.Bind(Endpoints.EphemeralTcp);
        push.Bind(Endpoints.EphemeralTcp);

        Task received = pull.RecvStringAsync(timeout.Token).AsTask();
        Task sent = push.SendAsync("never sent", timeout.Token).AsTask();
        Assert.False(received.IsCompleted);
        Assert.False(sent.IsCompleted);

        if (disposeContext)
        {
            context.Dispose();
        }
        else
        {
            context.Shutdown();
        }

        Task both = Task.WhenAll(received, sent);
        Assert.True(await Waits.FinishesAsync(both), "a pending operation did not end when the context was shut down");
        await Assert.ThrowsAsync<ContextTerminatedException>(() => received);
        await Assert.ThrowsAsync<ContextTerminatedException>(() => sent);

        // A new operation on a socket of the terminated context fails the same way.
        await Assert.ThrowsAsync<ContextTerminatedException>(async () => await pull.RecvAsync(new byte[1]));
        context.Dispose();
    }
}
