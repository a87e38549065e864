using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Where code runs: await in a handler resumes on the loop thread; work posted from outside runs there.</summary>
public sealed class EventLoopThreadingTests : LoopPerTest
{
    [Fact]
    public async Task Await_inside_a_handler_resumes_on_the_loop_thread()
    {
        var threads = new List<bool>();
        Loop.Add(Pull, async socket =>
        {
            socket.RecvString();
            threads.Add(Loop.IsOnLoopThread);
            await Task.Delay(10);                   // completes on a timer thread
            threads.Add(Loop.IsOnLoopThread);
            await Task.Run(() => Thread.Sleep(1));  // completes on the thread pool
            threads.Add(Loop.IsOnLoopThread);
            Loop.Stop();
        });
        Task run = Loop.RunAsync();
        Push.Send("go");

        await LoopRuns.EndsAsync(run);
        Assert.Equal([true, true, true], threads);
    }

    [Fact]
    public async Task Work_posted_from_outside_runs_on_the_loop_thread_in_order()
    {
        var order = new List<int>();
        bool onLoopThread = true;
        Task run = Loop.RunAsync();
        for (int i = 0; i < 100; i++)
        {
            int n = i;
            Loop.Post(() =>
            {
                onLoopThread &= Loop.IsOnLoopThread;
                order.Add(n);
            });
        }

        int result = await Task.Factory.StartNew(() => order.Count, CancellationToken.None, TaskCreationOptions.None, Loop.TaskScheduler);
        Loop.SynchronizationContext.Send(_ => order.Add(100), null);
        Loop.Stop();

        await LoopRuns.EndsAsync(run);
        Assert.Equal(100, result);
        Assert.Equal(Enumerable.Range(0, 101), order);
        Assert.True(onLoopThread);
    }

    [Fact]
    public async Task The_loop_thread_has_the_loop_context_while_running_and_the_previous_one_after()
    {
        SynchronizationContext? inside = null;
        Loop.Post(() =>
        {
            inside = SynchronizationContext.Current;
            Loop.Stop();
        });

        await Waits.Run(() =>
        {
            Loop.Run();
            Assert.Null(SynchronizationContext.Current);
        }).WaitAsync(Timeouts.Wait);
        Assert.Same(Loop.SynchronizationContext, inside);
    }
}
