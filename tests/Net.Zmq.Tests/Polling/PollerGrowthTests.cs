using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerGrowthTests : ContextPerTest
{
    [Fact]
    public void Poller_grows_past_its_initial_capacity_and_keeps_earlier_indices_valid()
    {
        const int Count = 20;
        var pulls = new List<Socket>();
        var pushes = new List<Socket>();
        try
        {
            using var poller = new Poller(2);
            var indices = new List<int>();
            for (int i = 0; i < Count; i++)
            {
                Socket pull = Sockets.New(Context, SocketType.Pull);
                pulls.Add(pull);
                Socket push = Sockets.New(Context, SocketType.Push);
                pushes.Add(push);
                push.Connect(Endpoints.BindInproc(pull));
                indices.Add(poller.Add(pull, PollEvents.In));
            }

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
        finally
        {
            pulls.ForEach(socket => socket.Dispose());
            pushes.ForEach(socket => socket.Dispose());
        }
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
    public void Poller_rejects_a_negative_capacity()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Poller(-1));
    }
}
