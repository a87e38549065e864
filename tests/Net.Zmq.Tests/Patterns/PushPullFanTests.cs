using System.Globalization;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

/// <summary>PUSH and PULL with more than two sockets: several pushes feeding one pull, one push spreading over several pulls.</summary>
public class PushPullFanTests : ContextPerTest
{
    [Fact]
    public void Several_pushes_feed_one_pull_and_every_message_arrives_in_per_sender_order()
    {
        const int Senders = 4;
        const int PerSender = 250;
        using var group = new SocketGroup(Context);
        Socket sink = group.New(SocketType.Pull);
        Socket[] senders = group.ConnectedTo(Endpoints.BindTcp(sink), SocketType.Push, Senders);

        for (int i = 0; i < PerSender; i++)
        {
            for (int s = 0; s < Senders; s++)
            {
                Assert.True(senders[s].Send($"{s}:{i}"));
            }
        }

        var next = new int[Senders];
        for (int n = 0; n < Senders * PerSender; n++)
        {
            string[] parts = sink.RecvString().Split(':');
            int sender = int.Parse(parts[0], CultureInfo.InvariantCulture);
            int sequence = int.Parse(parts[1], CultureInfo.InvariantCulture);
            Assert.Equal(next[sender], sequence);
            next[sender]++;
        }

        Assert.All(next, count => Assert.Equal(PerSender, count));
        Frames.AssertNothingWaiting(sink);
    }

    [Fact]
    public void One_push_spreads_messages_over_several_pulls_delivering_each_exactly_once()
    {
        const int Workers = 3;
        const int Messages = 300;
        using var group = new SocketGroup(Context);
        Socket ventilator = group.New(SocketType.Push);

        // The PUSH connects to every PULL: each connect creates its pipe at once, so all workers share the load.
        Socket[] workers = group.BoundPeersOf(ventilator, SocketType.Pull, Workers);

        for (int i = 0; i < Messages; i++)
        {
            Assert.True(ventilator.Send($"task {i}"));
        }

        var perWorker = new List<string>[Workers];
        using var poller = new Poller(Workers);
        for (int w = 0; w < Workers; w++)
        {
            perWorker[w] = [];
            Assert.Equal(w, poller.Add(workers[w], PollEvents.In));
        }

        int total = 0;
        while (total < Messages)
        {
            Assert.True(poller.Poll(Timeouts.WaitMs) > 0, $"only {total} of {Messages} tasks arrived");
            for (int w = 0; w < Workers; w++)
            {
                while (poller.IsReadable(w) && workers[w].TryRecvString(out string? task))
                {
                    perWorker[w].Add(task);
                    total++;
                }
            }
        }

        string[] all = perWorker.SelectMany(tasks => tasks).ToArray();
        Assert.Equal(Messages, all.Length);
        Assert.Equal(Enumerable.Range(0, Messages).Select(i => $"task {i}").Order(), all.Order());
        Assert.All(perWorker, tasks => Assert.NotEmpty(tasks));
        Assert.All(workers, Frames.AssertNothingWaiting);
    }

    [Fact]
    public void Push_hands_messages_to_pulls_round_robin()
    {
        const int Workers = 3;
        using var group = new SocketGroup(Context);
        Socket ventilator = group.New(SocketType.Push);
        Socket[] workers = group.BoundPeersOf(ventilator, SocketType.Pull, Workers, inproc: true);

        for (int i = 0; i < Workers * 4; i++)
        {
            Assert.True(ventilator.Send($"{i}"));
        }

        // Each worker gets every third message, in order.
        foreach (Socket worker in workers)
        {
            int[] got = Enumerable.Range(0, 4).Select(_ => int.Parse(worker.RecvString(), CultureInfo.InvariantCulture)).ToArray();
            Assert.Equal(4, got.Length);
            Assert.All(got.Zip(got.Skip(1)), pair => Assert.Equal(Workers, pair.Second - pair.First));
            Frames.AssertNothingWaiting(worker);
        }
    }
}
