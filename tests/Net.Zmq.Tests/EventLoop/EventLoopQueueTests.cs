using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Queues: items from many threads reach the loop thread, none lost, each thread's in its order.</summary>
public sealed class EventLoopQueueTests
{
    [Fact]
    public async Task Items_from_many_threads_all_arrive_on_the_loop_thread_in_each_threads_order()
    {
        const int Producers = 4;
        const int PerProducer = 20_000;
        using var loop = new Loop();
        int[] next = new int[Producers];
        int total = 0;
        bool inOrder = true, onLoopThread = true;
        EventLoopQueue<(int Producer, int Sequence)> queue = loop.AddQueue<(int Producer, int Sequence)>(item =>
        {
            onLoopThread &= loop.IsOnLoopThread;
            inOrder &= next[item.Producer] == item.Sequence;
            next[item.Producer] = item.Sequence + 1;
            if (++total == Producers * PerProducer)
            {
                loop.Stop();
            }
        });
        Task run = loop.RunAsync();

        var producers = Enumerable.Range(0, Producers).Select(p => BackgroundWork.Start($"producer {p}", () =>
        {
            for (int i = 0; i < PerProducer; i++)
            {
                queue.Enqueue((p, i));
            }
        })).ToArray();
        foreach (BackgroundWork producer in producers)
        {
            producer.Join(Timeouts.Wait);
        }

        await LoopRuns.EndsAsync(run);
        Assert.Equal(Producers * PerProducer, total);
        Assert.True(inOrder);
        Assert.True(onLoopThread);
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public async Task Items_enqueued_before_the_loop_runs_are_handled_when_it_does()
    {
        using var loop = new Loop();
        var seen = new List<string>();
        EventLoopQueue<string> queue = loop.AddQueue<string>(text =>
        {
            seen.Add(text);
            if (seen.Count == 3)
            {
                loop.Stop();
            }
        });
        queue.Enqueue("a");
        queue.Enqueue("b");
        queue.Enqueue("c");

        await LoopRuns.EndsAsync(loop.RunAsync());
        Assert.Equal(["a", "b", "c"], seen);
    }

    [Fact]
    public void A_disposed_queue_refuses_items()
    {
        using var loop = new Loop();
        EventLoopQueue<int> queue = loop.AddQueue<int>(_ => { });
        queue.Enqueue(1);
        queue.Dispose();

        Assert.True(queue.IsDisposed);
        Assert.Equal(0, queue.Count);
        Assert.Throws<ObjectDisposedException>(() => queue.Enqueue(2));
    }
}
