using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

/// <summary>
/// A Poller's entries: Add past the initial capacity, Update, Remove, Clear, and the indices each hands out or
/// refuses.
/// </summary>
public class PollerEntryTests : ContextPerTest
{
    [Fact]
    public void Poller_grows_past_its_initial_capacity_and_keeps_earlier_indices_valid()
    {
        const int Count = 20;
        using var group = new SocketGroup(Context);
        var (pulls, pushes) = group.Pairs(SocketType.Pull, SocketType.Push, Count, inproc: true);
        using var poller = new Poller(2);
        int[] indices = pulls.Select(pull => poller.Add(pull, PollEvents.In)).ToArray();

        Assert.Equal(Enumerable.Range(0, Count), indices);
        Assert.Equal(Count, poller.Count);

        // One socket from before the growth, one from after it.
        Assert.True(pushes[0].Send("first"));
        Assert.True(pushes[Count - 1].Send("last"));

        Assert.Equal(2, poller.Poll(Timeouts.WaitMs));
        for (int i = 0; i < Count; i++)
        {
            Assert.Equal(i == 0 || i == Count - 1, poller.IsReadable(indices[i]));
        }

        Assert.Equal("first", pulls[0].RecvString());
        Assert.Equal("last", pulls[Count - 1].RecvString());
    }

    [Fact]
    public void Poller_with_zero_capacity_still_accepts_entries()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using var poller = new Poller(0);

        int leftIndex = poller.Add(left, PollEvents.In);
        int rightIndex = poller.Add(right, PollEvents.In);
        Assert.True(right.Send("hi"));

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(leftIndex));
        Assert.False(poller.IsReadable(rightIndex));
    }

    [Fact]
    public async Task A_poller_without_entries_sleeps_out_its_timeout_and_refuses_to_wait_forever()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        using var poller = new Poller();
        using var empty = new Poller();
        poller.Remove(poller.Add(pair.Binder, PollEvents.In)); // an entry removed: zmq_poll would block on it forever

        foreach (Poller p in new[] { poller, empty })
        {
            Assert.Equal(0, p.Poll(0));
            long start = Environment.TickCount64;
            Assert.Equal(0, p.Poll(50));
            Assert.True(Environment.TickCount64 - start >= 45, "returned before its timeout");

            // On a thread of its own with a bound: a poll that never returned would not end the test.
            InvalidOperationException never = await Task.Run(() => Assert.Throws<InvalidOperationException>(() => p.Poll(-1)))
                .WaitAsync(Timeouts.Wait);
            Assert.Contains("no entries, so a Poll without a timeout would never return", never.Message);
            Assert.Throws<InvalidOperationException>(() => p.Poll(Timeout.InfiniteTimeSpan));
        }
    }

    [Fact]
    public void Poller_rejects_a_negative_capacity()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Poller(-1));
    }

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
        using var group = new SocketGroup(Context);
        var (pulls, pushes) = group.Pairs(SocketType.Pull, SocketType.Push, 2, inproc: true);
        Socket quiet = pulls[0];
        Socket busy = pulls[1];
        Assert.True(pushes[1].Send("pending"));
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
        using var group = new SocketGroup(Context);
        var (pulls, pushes) = group.Pairs(SocketType.Pull, SocketType.Push, 3, inproc: true);
        using var poller = new Poller();
        int first = poller.Add(pulls[0], PollEvents.In);
        int second = poller.Add(pulls[1], PollEvents.In);
        poller.Remove(first);

        int third = poller.Add(pulls[2], PollEvents.In);

        Assert.Equal(first, third);
        Assert.Equal(2, poller.Count);
        Assert.True(pushes[2].Send("for third"));
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(third));
        Assert.False(poller.IsReadable(second));
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

    [Fact]
    public void Clear_removes_every_entry_and_the_poller_is_reused_from_index_0()
    {
        using var group = new SocketGroup(Context);
        var (pulls, pushes) = group.Pairs(SocketType.Pull, SocketType.Push, 2);
        using var poller = new Poller(1);
        poller.Add(pulls[0], PollEvents.In);
        int removed = poller.Add(pulls[1], PollEvents.In);
        poller.Add(pushes[0], PollEvents.Out);
        poller.Remove(removed);

        poller.Clear();

        Assert.Equal(0, poller.Count);
        Assert.Equal(0, poller.Poll(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsReadable(0));

        pushes[1].Send("x");
        Assert.Equal(0, poller.Add(pulls[1], PollEvents.In));
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
