using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

/// <summary>Poller.Clear: every entry removed and every socket given back, the poller reusable.</summary>
public class PollerClearTests
{
    [Fact]
    public void Clear_removes_every_entry_and_the_poller_is_reused_from_index_0()
    {
        using var first = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var second = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var poller = new Poller(1);
        poller.Add(first.Binder, PollEvents.In);
        int removed = poller.Add(second.Binder, PollEvents.In);
        poller.Add(first.Connector, PollEvents.Out);
        poller.Remove(removed);

        poller.Clear();

        Assert.Equal(0, poller.Count);
        Assert.Equal(0, poller.Poll(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsReadable(0));

        second.Connector.Send("x");
        Assert.Equal(0, poller.Add(second.Binder, PollEvents.In));
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(0));
    }

    [Fact]
    public async Task Clear_gives_the_sockets_back_so_they_can_be_disposed_and_used_asynchronously()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var poller = new Poller();
        poller.Add(pull, PollEvents.In);
        poller.Add(push, PollEvents.Out);
        Assert.Throws<InvalidOperationException>(() => pull.RecvAsync(new byte[4]));

        poller.Clear();

        ValueTask<int> received = pull.RecvAsync(new byte[4]);
        push.Send("ok");
        Task<int> receiving = received.AsTask();
        Assert.True(await Waits.FinishesAsync(receiving));
        Assert.Equal(2, await receiving);

        push.Dispose();
        Assert.Equal(0, poller.Poll(0)); // a disposed socket no longer registered: no ObjectDisposedException
    }

    [Fact]
    public void Clear_on_a_disposed_poller_is_refused()
    {
        var poller = new Poller();
        poller.Dispose();
        Assert.Throws<ObjectDisposedException>(() => poller.Clear());
    }
}
