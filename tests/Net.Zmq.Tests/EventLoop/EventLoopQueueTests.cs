using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>
/// Queues: items from many threads reach the loop thread, none lost, each thread's in its order. A queue with a capacity
/// holds back producers faster than the loop: TryEnqueue says false when it is full, EnqueueAsync waits for room, Enqueue
/// throws; nothing is lost and the queue never holds more than its capacity.
/// </summary>
public sealed class EventLoopQueueTests : LoopPerTest
{
    [Fact]
    public async Task Items_from_many_threads_all_arrive_on_the_loop_thread_in_each_threads_order()
    {
        const int Producers = 4;
        const int PerProducer = 20_000;
        int[] next = new int[Producers];
        int total = 0;
        bool inOrder = true, onLoopThread = true;
        EventLoopQueue<(int Producer, int Sequence)> queue = Loop.AddQueue<(int Producer, int Sequence)>(item =>
        {
            onLoopThread &= Loop.IsOnLoopThread;
            inOrder &= next[item.Producer] == item.Sequence;
            next[item.Producer] = item.Sequence + 1;
            if (++total == Producers * PerProducer)
            {
                Loop.Stop();
            }
        });
        Task run = Loop.RunAsync();

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
        var seen = new List<string>();
        EventLoopQueue<string> queue = Loop.AddQueue<string>(text =>
        {
            seen.Add(text);
            if (seen.Count == 3)
            {
                Loop.Stop();
            }
        });
        queue.Enqueue("a");
        queue.Enqueue("b");
        queue.Enqueue("c");

        await LoopRuns.EndsAsync(Loop.RunAsync());
        Assert.Equal(["a", "b", "c"], seen);
    }

    [Fact]
    public void A_disposed_queue_refuses_items()
    {
        EventLoopQueue<int> queue = Loop.AddQueue<int>(_ => { });
        queue.Enqueue(1);
        queue.Dispose();

        Assert.True(queue.IsDisposed);
        Assert.Equal(0, queue.Count);
        Assert.Throws<ObjectDisposedException>(() => queue.Enqueue(2));
    }

    [Fact]
    public async Task A_full_queue_refuses_TryEnqueue_and_Enqueue_and_EnqueueAsync_waits_for_room()
    {
        var seen = new List<int>();
        EventLoopQueue<int> queue = Loop.AddQueue<int>(item =>
        {
            seen.Add(item);
            if (seen.Count == 3)
            {
                Loop.Stop();
            }
        }, capacity: 2);
        Assert.Equal(2, queue.Capacity);

        Assert.True(queue.TryEnqueue(1));
        Assert.True(queue.TryEnqueue(2));
        Assert.False(queue.TryEnqueue(99));
        var full = Assert.Throws<InvalidOperationException>(() => queue.Enqueue(99));
        Assert.Contains("full", full.Message, StringComparison.Ordinal);
        Assert.Equal(2, queue.Count);
        ValueTask waiting = queue.EnqueueAsync(3);
        Assert.False(waiting.IsCompleted, "EnqueueAsync completed on a full queue");

        await LoopRuns.EndsAsync(Loop.RunAsync());

        Assert.True(await Waits.FinishesAsync(waiting.AsTask()), "EnqueueAsync did not complete once the loop made room");
        Assert.Equal([1, 2, 3], seen);
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public async Task Producers_faster_than_the_loop_never_fill_it_past_its_capacity_and_lose_nothing()
    {
        const int Capacity = 64;
        const int Producers = 4;
        const int PerProducer = 5_000;
        EventLoopQueue<int> queue = null!;
        int handled = 0, largest = 0;
        queue = Loop.AddQueue<int>(_ =>
        {
            largest = Math.Max(largest, queue.Count);
            if (++handled == Producers * PerProducer)
            {
                Loop.Stop();
            }
        }, Capacity);
        Task run = Loop.RunAsync();

        Task[] producers = Enumerable.Range(0, Producers).Select(_ => Task.Run(async () =>
        {
            for (int i = 0; i < PerProducer; i++)
            {
                await queue.EnqueueAsync(i);
            }
        })).ToArray();

        Assert.True(await Waits.FinishesAsync(Task.WhenAll(producers), TimeSpan.FromSeconds(30)), "the producers did not finish");
        await LoopRuns.EndsAsync(run, TimeSpan.FromSeconds(30));
        Assert.Equal(Producers * PerProducer, handled);
        Assert.True(largest <= Capacity, $"the queue held {largest} items, over its capacity of {Capacity}");
    }

    [Fact]
    public async Task Cancelling_or_disposing_ends_a_waiting_EnqueueAsync_and_adds_nothing()
    {
        EventLoopQueue<string> queue = Loop.AddQueue<string>(_ => { }, capacity: 1);
        Assert.True(queue.TryEnqueue("kept"));
        using var cancel = new CancellationTokenSource();

        ValueTask cancelled = queue.EnqueueAsync("cancelled", cancel.Token);
        ValueTask disposed = queue.EnqueueAsync("disposed");
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled.AsTask());
        Assert.Equal(1, queue.Count);
        queue.Dispose();
        Task waited = disposed.AsTask();
        Assert.True(await Waits.FinishesAsync(waited), "Dispose did not end the waiting EnqueueAsync");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => waited);
        Assert.Throws<ObjectDisposedException>(() => queue.TryEnqueue("after"));
    }

    [Fact]
    public void Capacity_must_be_positive_and_an_unbounded_queue_has_none()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Loop.AddQueue<int>(_ => { }, capacity: 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => Loop.AddQueue<int>(_ => { }, capacity: -1));

        EventLoopQueue<int> unbounded = Loop.AddQueue<int>(_ => { });
        Assert.Null(unbounded.Capacity);
        for (int i = 0; i < 10_000; i++)
        {
            Assert.True(unbounded.TryEnqueue(i));
        }

        Assert.True(unbounded.EnqueueAsync(1).IsCompletedSuccessfully);
    }
}
