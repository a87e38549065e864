using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>
/// Once running, the loop allocates nothing per event: a socket ready, a timer tick, a queue item of a struct type.
/// Measured on the loop thread (inside the handlers) between an event after the warm-up and the last one.
/// </summary>
public sealed class EventLoopAllocationTests
{
    private const int WarmUp = 200;

    [Fact]
    public async Task Socket_events_allocate_nothing()
    {
        const int Messages = 5_000;
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var loop = new Loop();
        var meter = new Meter(WarmUp, Messages);
        byte[] buffer = new byte[64];
        loop.Add(pull, socket =>
        {
            // One message per event, so each readiness is its own pass of the loop.
            socket.Recv(buffer);
            if (meter.Count())
            {
                loop.Stop();
            }
        });
        Task run = loop.RunAsync();
        byte[] payload = new byte[32];
        for (int i = 0; i < Messages; i++)
        {
            push.Send(payload);
        }

        await LoopRuns.EndsAsync(run, TimeSpan.FromSeconds(30));
        Assert.Equal(0, meter.Allocated);
    }

    [Fact]
    public async Task Timer_ticks_allocate_nothing()
    {
        using var loop = new Loop();
        var meter = new Meter(20, 120);
        loop.AddTimer(TimeSpan.FromMilliseconds(1), timer =>
        {
            if (meter.Count())
            {
                timer.Dispose();
                loop.Stop();
            }
        });

        await LoopRuns.EndsAsync(loop.RunAsync(), TimeSpan.FromSeconds(30));
        Assert.Equal(0, meter.Allocated);
    }

    [Fact]
    public async Task Queue_items_of_a_struct_type_allocate_nothing()
    {
        const int Items = 20_000;
        using var loop = new Loop();
        var meter = new Meter(WarmUp, Items);
        long sum = 0;
        EventLoopQueue<(long Value, int Tag)> queue = loop.AddQueue<(long Value, int Tag)>(item =>
        {
            sum += item.Value;
            if (meter.Count())
            {
                loop.Stop();
            }
        });
        Task run = loop.RunAsync();
        for (int i = 0; i < Items; i++)
        {
            queue.Enqueue((i, 0));
        }

        await LoopRuns.EndsAsync(run, TimeSpan.FromSeconds(30));
        Assert.Equal(0, meter.Allocated);
        Assert.Equal((long)Items * (Items - 1) / 2, sum);
    }

    /// <summary>Counts events on the loop thread and reads its allocation counter at the warm-up's end and at the last event.</summary>
    private sealed class Meter(int warmUp, int total)
    {
        private int _count;
        private long _start;

        public long Allocated { get; private set; } = -1;

        /// <summary>Counts one event; true at the last.</summary>
        public bool Count()
        {
            _count++;
            if (_count == warmUp)
            {
                _start = GC.GetAllocatedBytesForCurrentThread();
            }
            else if (_count == total)
            {
                Allocated = GC.GetAllocatedBytesForCurrentThread() - _start;
                return true;
            }

            return false;
        }
    }
}
