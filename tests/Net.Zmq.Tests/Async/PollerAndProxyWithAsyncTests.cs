using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A Poller or a Proxy never drives a socket that Net.Zmq's reactor drives: a socket used asynchronously is refused,
/// async use of a socket a Poller holds is refused, and after the Poller released it the async API works. Never a hang.
/// </summary>
public sealed class PollerAndProxyWithAsyncTests() : PushPullPerTest(inproc: true)
{
    [Fact]
    public async Task A_socket_with_a_parked_receive_is_refused_by_Poller_Add_and_the_receive_still_completes()
    {
        using var poller = new Poller();
        ValueTask<string> received = Pull.RecvStringAsync(Timeout.Token);
        Assert.False(received.IsCompleted);

        var error = Assert.Throws<InvalidOperationException>(() => poller.Add(Pull, PollEvents.In));
        Assert.Contains("SendAsync/RecvAsync", error.Message);
        Assert.Equal(0, poller.Count);

        Push.Send("after the refusal");
        Task<string> completion = received.AsTask();
        Assert.True(await Waits.FinishesAsync(completion), "the parked receive never completed");
        Assert.Equal("after the refusal", await completion);
    }

    [Fact]
    public async Task A_socket_used_asynchronously_before_is_refused_by_Poller_Add_even_when_idle()
    {
        using var poller = new Poller();
        Push.Send("one");
        Assert.Equal("one", await Pull.RecvStringAsync(Timeout.Token));

        Assert.Throws<InvalidOperationException>(() => poller.Add(Pull, PollEvents.In));

        // The socket is not held by the refused Add: it still works both ways.
        Push.Send("two");
        Assert.Equal("two", await Pull.RecvStringAsync(Timeout.Token));
        Push.Send("three");
        Assert.Equal("three", Pull.RecvString());
    }

    [Fact]
    public async Task Async_use_of_a_socket_a_Poller_holds_is_refused_and_works_after_Remove()
    {
        using var poller = new Poller();
        int index = poller.Add(Pull, PollEvents.In);

        var error = Assert.Throws<InvalidOperationException>(() => { _ = Pull.RecvStringAsync(Timeout.Token); });
        Assert.Contains("Poller", error.Message);
        Assert.Throws<InvalidOperationException>(() => { _ = Pull.SendAsync("x"u8.ToArray()); });

        Push.Send("polled");
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(index));
        Assert.Equal("polled", Pull.RecvString());

        poller.Remove(index);
        Task<string> received = Pull.RecvStringAsync(Timeout.Token).AsTask();
        Push.Send("awaited");
        Assert.True(await Waits.FinishesAsync(received), "the receive after Remove never completed");
        Assert.Equal("awaited", await received);
    }

    [Fact]
    public async Task Async_use_works_after_the_Poller_holding_the_socket_is_disposed()
    {
        var poller = new Poller();
        poller.Add(Pull, PollEvents.In);
        poller.Add(Pull, PollEvents.In); // twice: both leases go back on Dispose
        poller.Dispose();

        Task<string> received = Pull.RecvStringAsync(Timeout.Token).AsTask();
        Push.Send("after dispose");
        Assert.True(await Waits.FinishesAsync(received), "the receive after the Poller's Dispose never completed");
        Assert.Equal("after dispose", await received);
    }

    [Fact]
    public async Task Proxy_refuses_a_socket_used_asynchronously()
    {
        using var backend = new Socket(Context, SocketType.Push);
        Push.Send("one");
        Assert.Equal("one", await Pull.RecvStringAsync(Timeout.Token));

        Task run = Waits.Run(() => Proxy.Start(Pull, backend));
        Assert.True(await Waits.FinishesAsync(run), "Proxy.Start ran with a socket in async use");
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => run);
        Assert.Contains("SendAsync/RecvAsync", error.Message);
    }
}
