using Net.Zmq.Monitoring;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Monitoring;

/// <summary><see cref="SocketMonitor.RecvAsync"/> and <see cref="SocketMonitor.RecvAllAsync"/>: events awaited without a thread.</summary>
public sealed class SocketMonitorAsyncTests : ContextPerTest
{
    [Fact]
    public async Task A_pending_RecvAsync_completes_when_the_event_happens()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var monitor = new SocketMonitor(server, SocketEvents.Listening);

        ValueTask<SocketMonitorEvent> pending = monitor.RecvAsync();
        Assert.False(pending.IsCompleted, "no event yet: the socket is not bound");
        server.Bind("tcp://127.0.0.1:*");

        Task<SocketMonitorEvent> listening = pending.AsTask();
        Assert.True(await Waits.FinishesAsync(listening), "the Listening event did not complete the wait");
        SocketMonitorEvent monitorEvent = await listening;
        Assert.Equal(SocketEvents.Listening, monitorEvent.Event);
        Assert.Equal(server.LastEndpoint, monitorEvent.Endpoint);
    }

    [Fact]
    public async Task Cancelling_RecvAsync_throws_and_consumes_no_event()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var monitor = new SocketMonitor(server, SocketEvents.Listening);
        using var cancel = new CancellationTokenSource();

        Task<SocketMonitorEvent> pending = monitor.RecvAsync(cancel.Token).AsTask();
        await cancel.CancelAsync();

        Assert.True(await Waits.FinishesAsync(pending), "cancelling did not end the wait");
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pending);

        server.Bind("tcp://127.0.0.1:*");
        SocketMonitorEvent listening = await monitor.RecvAsync().AsTask().WaitAsync(Timeouts.Wait);
        Assert.Equal(SocketEvents.Listening, listening.Event);
    }

    [Fact]
    public async Task Disposing_the_monitor_ends_a_pending_RecvAsync_with_ObjectDisposedException()
    {
        using var server = new Socket(Context, SocketType.Router);
        var monitor = new SocketMonitor(server, SocketEvents.Listening); // not MonitorStopped, which Dispose would deliver
        Task<SocketMonitorEvent> pending = monitor.RecvAsync().AsTask();
        Assert.False(pending.IsCompleted);

        monitor.Dispose();

        Assert.True(await Waits.FinishesAsync(pending), "disposing did not end the wait");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => pending);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => monitor.RecvAsync().AsTask());
    }

    [Fact]
    public async Task A_second_read_while_one_is_pending_is_refused()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var monitor = new SocketMonitor(server, SocketEvents.Listening);
        Task<SocketMonitorEvent> pending = monitor.RecvAsync().AsTask();

        Assert.Throws<InvalidOperationException>(() => monitor.RecvAsync());
        Assert.Throws<InvalidOperationException>(() => monitor.TryRecv(out _, TimeSpan.Zero));

        server.Bind("tcp://127.0.0.1:*");
        Assert.Equal(SocketEvents.Listening, (await pending.WaitAsync(Timeouts.Wait)).Event);
    }

    [Fact]
    public async Task RecvAllAsync_yields_a_connection_s_events_in_order_and_ends_after_the_socket_closes()
    {
        var server = new Socket(Context, SocketType.Router);
        using var monitor = new SocketMonitor(server, SocketEvents.Listening | SocketEvents.Accepted | SocketEvents.HandshakeSucceeded | SocketEvents.MonitorStopped);
        using var client = new Socket(Context, SocketType.Dealer);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        var seen = new List<SocketEvents>();

        server.Bind("tcp://127.0.0.1:*");
        client.Connect(server.LastEndpoint);
        await foreach (SocketMonitorEvent monitorEvent in monitor.RecvAllAsync(timeout.Token))
        {
            seen.Add(monitorEvent.Event);
            if (monitorEvent.Event == SocketEvents.HandshakeSucceeded)
            {
                server.Dispose();
            }
        }

        Assert.Equal([SocketEvents.Listening, SocketEvents.Accepted, SocketEvents.HandshakeSucceeded, SocketEvents.MonitorStopped], seen);
    }

    [Fact]
    public async Task RecvAllAsync_ends_quietly_when_the_monitor_is_disposed_and_throws_when_cancelled()
    {
        using var server = new Socket(Context, SocketType.Router);
        var disposed = new SocketMonitor(server, SocketEvents.Listening);
        Task drained = Drain(disposed, CancellationToken.None);
        disposed.Dispose();
        Assert.True(await Waits.FinishesAsync(drained), "disposing did not end the loop");
        await drained;

        using var cancelled = new SocketMonitor(server, SocketEvents.Listening);
        using var cancel = new CancellationTokenSource();
        Task loop = Drain(cancelled, cancel.Token);
        await cancel.CancelAsync();
        Assert.True(await Waits.FinishesAsync(loop), "cancelling did not end the loop");
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => loop);
    }

    [Fact]
    public async Task Shutting_the_context_down_ends_RecvAllAsync_quietly()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var monitor = new SocketMonitor(server, SocketEvents.Listening);
        Task loop = Drain(monitor, CancellationToken.None);

        Context.Shutdown();

        Assert.True(await Waits.FinishesAsync(loop), "the context's shutdown did not end the loop");
        await loop;
    }

    private static async Task Drain(SocketMonitor monitor, CancellationToken cancellationToken)
    {
        await foreach (SocketMonitorEvent _ in monitor.RecvAllAsync(cancellationToken))
        {
        }
    }
}
