using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A Poller or a Proxy never drives a socket that Net.Zmq's reactor drives: a socket used asynchronously is refused,
/// async use of a socket a Poller holds is refused, and after the Poller released it the async API works. Never a hang.
/// </summary>
public sealed class PollerAndProxyWithAsyncTests : ContextPerTest
{
    [Fact]
    public async Task A_socket_with_a_parked_receive_is_refused_by_Poller_Add_and_the_receive_still_completes()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var poller = new Poller();
        ValueTask<string> received = pair.Binder.RecvStringAsync(timeout.Token);
        Assert.False(received.IsCompleted);

        var error = Assert.Throws<InvalidOperationException>(() => poller.Add(pair.Binder, PollEvents.In));
        Assert.Contains("SendAsync/RecvAsync", error.Message);
        Assert.Equal(0, poller.Count);

        pair.Connector.Send("after the refusal");
        Task<string> completion = received.AsTask();
        Assert.True(await Waits.FinishesAsync(completion), "the parked receive never completed");
        Assert.Equal("after the refusal", await completion);
    }

    [Fact]
    public async Task A_socket_used_asynchronously_before_is_refused_by_Poller_Add_even_when_idle()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var poller = new Poller();
        pair.Connector.Send("one");
        Assert.Equal("one", await pair.Binder.RecvStringAsync(timeout.Token));

        Assert.Throws<InvalidOperationException>(() => poller.Add(pair.Binder, PollEvents.In));

        // The socket is not held by the refused Add: it still works both ways.
        pair.Connector.Send("two");
        Assert.Equal("two", await pair.Binder.RecvStringAsync(timeout.Token));
        pair.Connector.Send("three");
        Assert.Equal("three", pair.Binder.RecvString());
    }

    [Fact]
    public async Task Async_use_of_a_socket_a_Poller_holds_is_refused_and_works_after_Remove()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var poller = new Poller();
        int index = poller.Add(pair.Binder, PollEvents.In);

        var error = Assert.Throws<InvalidOperationException>(() => { _ = pair.Binder.RecvStringAsync(timeout.Token); });
        Assert.Contains("Poller", error.Message);
        Assert.Throws<InvalidOperationException>(() => { _ = pair.Binder.SendAsync("x"u8.ToArray()); });

        pair.Connector.Send("polled");
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(index));
        Assert.Equal("polled", pair.Binder.RecvString());

        poller.Remove(index);
        Task<string> received = pair.Binder.RecvStringAsync(timeout.Token).AsTask();
        pair.Connector.Send("awaited");
        Assert.True(await Waits.FinishesAsync(received), "the receive after Remove never completed");
        Assert.Equal("awaited", await received);
    }

    [Fact]
    public async Task Async_use_works_after_the_Poller_holding_the_socket_is_disposed()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        var poller = new Poller();
        poller.Add(pair.Binder, PollEvents.In);
        poller.Add(pair.Binder, PollEvents.In); // twice: both leases go back on Dispose
        poller.Dispose();

        Task<string> received = pair.Binder.RecvStringAsync(timeout.Token).AsTask();
        pair.Connector.Send("after dispose");
        Assert.True(await Waits.FinishesAsync(received), "the receive after the Poller's Dispose never completed");
        Assert.Equal("after dispose", await received);
    }

    [Fact]
    public async Task Proxy_refuses_a_socket_used_asynchronously()
    {
        using var frontend = new Socket(Context, SocketType.Pull);
        using var backend = new Socket(Context, SocketType.Push);
        using var peer = new Socket(Context, SocketType.Push);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        peer.Connect(Endpoints.BindInproc(frontend));
        peer.Send("one");
        Assert.Equal("one", await frontend.RecvStringAsync(timeout.Token));

        Task run = Waits.Run(() => Proxy.Start(frontend, backend));
        Assert.True(await Waits.FinishesAsync(run), "Proxy.Start ran with a socket in async use");
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => run);
        Assert.Contains("SendAsync/RecvAsync", error.Message);
    }
}
