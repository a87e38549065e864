using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerWritableTests : ContextPerTest
{
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
