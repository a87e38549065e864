using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerReadableIndexTests : ContextPerTest
{
    [Fact]
    public void Poller_reports_exactly_the_sockets_that_have_messages_by_their_indices()
    {
        const int Count = 5;
        var pulls = new List<Socket>();
        var pushes = new List<Socket>();
        try
        {
            using var poller = new Poller(Count);
            var indices = new int[Count];
            for (int i = 0; i < Count; i++)
            {
                Socket pull = Sockets.New(Context, SocketType.Pull);
                pulls.Add(pull);
                Socket push = Sockets.New(Context, SocketType.Push);
                pushes.Add(push);
                push.Connect(Endpoints.BindTcp(pull));
                indices[i] = poller.Add(pull, PollEvents.In);
            }

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
        finally
        {
            pulls.ForEach(socket => socket.Dispose());
            pushes.ForEach(socket => socket.Dispose());
        }
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
}
