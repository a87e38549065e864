using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

/// <summary>
/// What Poll reports: nothing (at once or after its timeout) for idle sockets, exactly the readable entries by their
/// indices, and writability, which a peer, a high water mark or a waiting message decide.
/// </summary>
public class PollerReadinessTests : ContextPerTest
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

    [Fact]
    public void Poller_reports_exactly_the_sockets_that_have_messages_by_their_indices()
    {
        const int Count = 5;
        using var group = new SocketGroup(Context);
        var (pulls, pushes) = group.Pairs(SocketType.Pull, SocketType.Push, Count);
        using var poller = new Poller(Count);
        int[] indices = pulls.Select(pull => poller.Add(pull, PollEvents.In)).ToArray();

        Assert.Equal(Enumerable.Range(0, Count), indices);
        Assert.Equal(Count, poller.Count);

        Assert.True(pushes[1].Send("to one"));
        Assert.True(pushes[3].Send("to three"));

        // TCP delivery is asynchronous: poll until both have shown up, never seeing any other socket ready.
        var seen = new HashSet<int>();
        var clock = Stopwatch.StartNew();
        while (seen.Count < 2)
        {
            int ready = poller.Poll(Timeouts.WaitMs);
            Assert.True(ready > 0, "no socket became readable");
            int[] readable = indices.Where(poller.IsReadable).ToArray();
            Assert.Equal(ready, readable.Length);
            Assert.All(readable, index => Assert.Contains(index, new[] { 1, 3 }));
            seen.UnionWith(readable);
            Assert.True(clock.Elapsed < Timeouts.Wait);
        }

        Assert.All(indices, index => Assert.False(poller.IsWritable(index)));
        Assert.Equal("to one", pulls[1].RecvString());
        Assert.Equal("to three", pulls[3].RecvString());
        Assert.Equal(0, poller.Poll(0));
        Assert.All(indices, index => Assert.False(poller.IsReadable(index)));
    }

    [Fact]
    public void Poller_stays_readable_until_every_waiting_message_is_taken()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var poller = new Poller();
        int index = poller.Add(pull, PollEvents.In);

        for (int i = 0; i < 3; i++)
        {
            Assert.True(push.Send($"{i}"));
        }

        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
            Assert.True(poller.IsReadable(index));
            Assert.Equal($"{i}", pull.RecvString());
        }

        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsReadable(index));
    }

    [Fact]
    public void Poll_with_a_timeout_wakes_when_a_message_arrives_from_another_thread()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var poller = new Poller(1);
        int index = poller.Add(pull, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));

        BackgroundWork sender = BackgroundWork.Start("sender", () => Assert.True(push.Send("wake up")));
        Assert.Equal(1, poller.Poll(TimeSpan.FromMilliseconds(Timeouts.WaitMs)));
        sender.Join(Timeouts.Wait);

        Assert.True(poller.IsReadable(index));
        Assert.Equal("wake up", pull.RecvString());
    }

    [Fact]
    public void Connected_dealer_is_writable_and_not_readable()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Dealer);
        var (router, dealer) = pair;
        using var poller = new Poller();
        int index = poller.Add(dealer, PollEvents.In | PollEvents.Out);

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsWritable(index));
        Assert.False(poller.IsReadable(index));
        Assert.False(poller.HasError(index));
        Assert.True((dealer.Events & PollEvents.Out) != 0);
    }

    [Fact]
    public void Dealer_without_any_peer_is_not_writable()
    {
        using Socket dealer = Sockets.New(Context, SocketType.Dealer);
        using var poller = new Poller();
        int index = poller.Add(dealer, PollEvents.Out);

        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsWritable(index));
        Assert.Equal(PollEvents.None, dealer.Events & PollEvents.Out);
    }

    [Fact]
    public void Dealer_stops_being_writable_at_its_high_water_mark()
    {
        using Socket dealer = Sockets.New(Context, SocketType.Dealer);
        dealer.SetOption(SocketOption.SendHighWatermark, 5);
        dealer.Connect(Endpoints.NewInproc()); // nobody binds it: the pipe exists but never drains
        using var poller = new Poller();
        int index = poller.Add(dealer, PollEvents.Out);
        Assert.Equal(1, poller.Poll(0));
        Assert.True(poller.IsWritable(index));

        int queued = 0;
        while (dealer.Send("x", SendFlags.DontWait))
        {
            queued++;
            Assert.True(queued <= 100, "the high water mark never applied");
        }

        Assert.True(queued >= 5);
        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsWritable(index));
    }

    [Fact]
    public void Readable_and_writable_are_reported_together_for_a_pair_with_a_waiting_message()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        Assert.True(right.Send("hello"));
        using var poller = new Poller();
        int index = poller.Add(left, PollEvents.In | PollEvents.Out);

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(index));
        Assert.True(poller.IsWritable(index));
    }
}
