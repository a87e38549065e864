using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerIdleTests : ContextPerTest
{
    [Fact]
    public void Poll_zero_on_idle_sockets_returns_zero_at_once()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        using Socket sub = Sockets.New(Context, SocketType.Sub);
        Endpoints.BindTcp(pull);
        sub.Subscribe("");
        sub.Connect(Endpoints.NewInproc());
        using var poller = new Poller();
        int first = poller.Add(pull, PollEvents.In);
        int second = poller.Add(sub, PollEvents.In);

        var clock = Stopwatch.StartNew();
        Assert.Equal(0, poller.Poll(0));
        Assert.Equal(0, poller.Poll(TimeSpan.Zero));
        clock.Stop();

        Assert.False(poller.IsReadable(first));
        Assert.False(poller.IsReadable(second));
        Assert.True(clock.ElapsedMilliseconds < 1000, $"Poll(0) took {clock.ElapsedMilliseconds} ms");
    }

    [Fact]
    public void Poll_with_a_timeout_on_idle_sockets_returns_zero_after_waiting()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(pull);
        using var poller = new Poller(1);
        int index = poller.Add(pull, PollEvents.In);

        var clock = Stopwatch.StartNew();
        Assert.Equal(0, poller.Poll(50));
        clock.Stop();

        Assert.False(poller.IsReadable(index));
        Assert.True(clock.ElapsedMilliseconds >= 25, $"Poll(50) returned after {clock.ElapsedMilliseconds} ms");
    }

    [Fact]
    public void Poll_on_an_empty_poller_returns_zero()
    {
        using var poller = new Poller();
        Assert.Equal(0, poller.Count);
        Assert.Equal(0, poller.Poll(0));
    }

    [Fact]
    public void Poll_rejects_a_timeout_below_minus_one()
    {
        using var poller = new Poller();
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.Poll(-2));
    }
}
