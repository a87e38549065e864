using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerThousandPairsTests
{
    [Fact]
    public void Thousand_inproc_pairs_in_one_poller_report_only_the_few_that_received()
    {
        const int Pairs = 1000;
        int[] chosen = [0, 7, 499, 500, 998, 999];
        using var group = SocketGroup.WithOwnContext(maxSockets: 2 * Pairs + 16);
        var (watched, peers) = group.Pairs(SocketType.Pair, SocketType.Pair, Pairs, inproc: true);
        using var poller = new Poller();
        int[] indices = watched.Select(socket => poller.Add(socket, PollEvents.In)).ToArray();

        Assert.Equal(Pairs, poller.Count);
        Assert.Equal(0, poller.Poll(0));

        foreach (int i in chosen)
        {
            Assert.True(peers[i].Send($"message for {i}"));
        }

        var seen = new HashSet<int>();
        var clock = Stopwatch.StartNew();
        while (seen.Count < chosen.Length)
        {
            int ready = poller.Poll(Timeouts.WaitMs);
            int[] readable = Enumerable.Range(0, Pairs).Where(i => poller.IsReadable(indices[i])).ToArray();
            Assert.Equal(ready, readable.Length);
            Assert.Subset(chosen.ToHashSet(), readable.ToHashSet());
            seen.UnionWith(readable);
            Assert.True(ready > 0 && clock.Elapsed < Timeouts.Wait, $"only {seen.Count} of {chosen.Length} became readable");
        }

        foreach (int i in chosen)
        {
            Assert.True(watched[i].TryRecvString(out string? text));
            Assert.Equal($"message for {i}", text);
        }

        Assert.Equal(0, poller.Poll(0));
    }
}
