using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerUpdateRemoveTests : ContextPerTest
{
    [Fact]
    public void Update_changes_which_events_are_reported_for_an_entry()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        Assert.True(right.Send("waiting"));
        using var poller = new Poller();
        int index = poller.Add(left, PollEvents.In);
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(index));

        poller.Update(index, PollEvents.None);
        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsReadable(index));

        poller.Update(index, PollEvents.Out);
        Assert.Equal(1, poller.Poll(0));
        Assert.False(poller.IsReadable(index));
        Assert.True(poller.IsWritable(index));

        poller.Update(index, PollEvents.In);
        Assert.Equal(1, poller.Poll(0));
        Assert.True(poller.IsReadable(index));
        Assert.False(poller.IsWritable(index));

        Assert.Equal("waiting", left.RecvString());
    }

    [Fact]
    public void Removed_entry_is_no_longer_polled_and_its_index_is_rejected()
    {
        using Socket quiet = Sockets.New(Context, SocketType.Pull);
        using Socket busy = Sockets.New(Context, SocketType.Pull);
        using Socket push = Sockets.New(Context, SocketType.Push);
        Endpoints.BindInproc(quiet);
        push.Connect(Endpoints.BindInproc(busy));
        Assert.True(push.Send("pending"));
        using var poller = new Poller();
        int quietIndex = poller.Add(quiet, PollEvents.In);
        int busyIndex = poller.Add(busy, PollEvents.In);
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(busyIndex));

        poller.Remove(busyIndex);

        Assert.Equal(1, poller.Count);
        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsReadable(quietIndex));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsReadable(busyIndex));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.Update(busyIndex, PollEvents.In));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.Remove(busyIndex));

        // The socket itself is untouched by the removal.
        Assert.Equal("pending", busy.RecvString());
    }

    [Fact]
    public void Index_freed_by_remove_is_reused_by_the_next_add()
    {
        using Socket first = Sockets.New(Context, SocketType.Pull);
        using Socket second = Sockets.New(Context, SocketType.Pull);
        using Socket third = Sockets.New(Context, SocketType.Pull);
        using Socket push = Sockets.New(Context, SocketType.Push);
        Endpoints.BindInproc(first);
        Endpoints.BindInproc(second);
        push.Connect(Endpoints.BindInproc(third));
        using var poller = new Poller();
        int a = poller.Add(first, PollEvents.In);
        int b = poller.Add(second, PollEvents.In);
        poller.Remove(a);

        int c = poller.Add(third, PollEvents.In);

        Assert.Equal(a, c);
        Assert.Equal(2, poller.Count);
        Assert.True(push.Send("for third"));
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(c));
        Assert.False(poller.IsReadable(b));
    }

    [Fact]
    public void Indices_out_of_range_are_rejected()
    {
        using var poller = new Poller();
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsReadable(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsWritable(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.HasError(100));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.Update(0, PollEvents.In));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.Remove(0));
    }
}
