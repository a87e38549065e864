using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Where code runs: await in a handler resumes on the loop thread; work posted from outside runs there.</summary>
public sealed class EventLoopThreadingTests
{
    [Fact]
    public async Task Await_inside_a_handler_resumes_on_the_loop_thread()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        var threads = new List<bool>();
        loop.Add(pull, async socket =>
        {
            socket.RecvString();
            threads.Add(loop.IsOnLoopThread);
            await Task.Delay(10);                   // completes on a timer thread
            threads.Add(loop.IsOnLoopThread);
            await Task.Run(() => Thread.Sleep(1));  // completes on the thread pool
            threads.Add(loop.IsOnLoopThread);
            loop.Stop();
        });
        Task run = loop.RunAsync();
        push.Send("go");

        await LoopRuns.EndsAsync(run);
        Assert.Equal([true, true, true], threads);
    }

    [Fact]
    public async Task Work_posted_from_outside_runs_on_the_loop_thread_in_order()
    {
        using var loop = new Loop();
        var order = new List<int>();
        bool onLoopThread = true;
        Task run = loop.RunAsync();
        for (int i = 0; i < 100; i++)
        {
            int n = i;
            loop.Post(() =>
            {
                onLoopThread &= loop.IsOnLoopThread;
                order.Add(n);
            });
        }

        int result = await Task.Factory.StartNew(() => order.Count, CancellationToken.None, TaskCreationOptions.None, loop.TaskScheduler);
        loop.SynchronizationContext.Send(_ => order.Add(100), null);
        loop.Stop();

        await LoopRuns.EndsAsync(run);
        Assert.Equal(100, result);
        Assert.Equal(Enumerable.Range(0, 101), order);
        Assert.True(onLoopThread);
    }

    [Fact]
    public async Task The_loop_thread_has_the_loop_context_while_running_and_the_previous_one_after()
    {
        using var loop = new Loop();
        SynchronizationContext? inside = null;
        loop.Post(() =>
        {
            inside = SynchronizationContext.Current;
            loop.Stop();
        });

        await Waits.Run(() =>
        {
            loop.Run();
            Assert.Null(SynchronizationContext.Current);
        }).WaitAsync(Timeouts.Wait);
        Assert.Same(loop.SynchronizationContext, inside);
    }
}
