using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Run, RunAsync, Stop and Dispose: from inside and outside, more than once, and what a handler's exception does.</summary>
public sealed class EventLoopStopTests : LoopPerTest
{
    [Fact]
    public async Task Stop_inside_a_handler_ends_Run_and_no_further_handler_runs()
    {
        int after = 0;
        Loop.Post(() =>
        {
            Loop.Stop();
            Loop.Stop(); // idempotent
        });
        Loop.Post(() => after++); // queued behind: not run once the loop stopped

        await Waits.Run(Loop.Run).WaitAsync(Timeouts.Wait);
        Assert.Equal(0, after);
        Assert.False(Loop.IsRunning);

        // The loop runs again, and the work left behind runs then.
        Loop.Post(Loop.Stop);
        await Waits.Run(Loop.Run).WaitAsync(Timeouts.Wait);
        Assert.Equal(1, after);
    }

    /// <summary>Stop in a queue's handler ends the loop there: the items behind it wait for the next run.</summary>
    [Fact]
    public async Task Stop_inside_a_queue_handler_leaves_the_rest_of_the_queue_to_the_next_run()
    {
        var seen = new List<int>();
        EventLoopQueue<int> queue = Loop.AddQueue<int>(i =>
        {
            seen.Add(i);
            if (i != 2)
            {
                Loop.Stop();
            }
        });
        queue.Enqueue(1);
        queue.Enqueue(2);
        queue.Enqueue(3);

        await Waits.Run(Loop.Run).WaitAsync(Timeouts.Wait);
        Assert.Equal([1], seen);

        await Waits.Run(Loop.Run).WaitAsync(Timeouts.Wait); // 2, then 3 stops it
        Assert.Equal([1, 2, 3], seen);
    }

    /// <summary>
    /// A handler that throws ends the run with its exception; the work posted or queued behind it, whose wake that run
    /// consumed, runs when the loop runs again.
    /// </summary>
    [Fact]
    public async Task Work_left_behind_by_a_handler_that_threw_runs_when_the_loop_runs_again()
    {
        var posted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Loop.Post(() => throw new InvalidOperationException("posted"));
        Loop.Post(posted.SetResult);
        Assert.Equal("posted", Assert.Throws<InvalidOperationException>(Loop.Run).Message);

        Task run = Loop.RunAsync();
        Assert.True(await Waits.FinishesAsync(posted.Task), "the posted work left behind never ran");
        Loop.Stop();
        await LoopRuns.EndsAsync(run);

        var queued = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        EventLoopQueue<int> queue = Loop.AddQueue<int>(i =>
        {
            if (i == 1)
            {
                throw new InvalidOperationException("queued");
            }

            queued.SetResult();
        });
        queue.Enqueue(1);
        queue.Enqueue(2);
        Assert.Equal("queued", (await Assert.ThrowsAsync<InvalidOperationException>(() => Loop.RunAsync().WaitAsync(Timeouts.Wait))).Message);

        run = Loop.RunAsync();
        Assert.True(await Waits.FinishesAsync(queued.Task), "the queued item left behind was never handled");
        Loop.Stop();
        await LoopRuns.EndsAsync(run);
    }

    /// <summary>
    /// A Send through the loop's SynchronizationContext from another thread waits for the loop to run the callback; a
    /// Dispose that drops it instead ends the wait with ObjectDisposedException (it waited for good before).
    /// </summary>
    [Fact]
    public async Task A_Send_that_the_loop_is_disposed_before_running_throws_ObjectDisposedException()
    {
        var loop = new Loop();
        SynchronizationContext? context = null;
        loop.Post(() =>
        {
            context = SynchronizationContext.Current;
            loop.Stop();
        });
        await Waits.Run(loop.Run).WaitAsync(Timeouts.Wait);
        Assert.NotNull(context);

        bool ran = false;
        Exception? failure = null;
        var sending = new Thread(() => failure = Record.Exception(() => context.Send(_ => ran = true, null))) { IsBackground = true };
        sending.Start();
        Assert.True(
            SpinWait.SpinUntil(() => (sending.ThreadState & System.Threading.ThreadState.WaitSleepJoin) != 0, Timeouts.Wait),
            "the Send never waited for the loop");

        loop.Dispose();
        Assert.True(sending.Join(Timeouts.Wait), "the Send still waits for the disposed loop");
        Assert.IsType<ObjectDisposedException>(failure);
        Assert.False(ran);
    }

    [Fact]
    public async Task Stop_from_another_thread_completes_RunAsync_and_is_idempotent()
    {
        Loop.Stop(); // not running: nothing happens
        Task run = Loop.RunAsync();
        Assert.True(Loop.IsRunning);
        Assert.Throws<InvalidOperationException>(() => { _ = Loop.RunAsync(); });

        Loop.Stop();
        Loop.Stop();

        await LoopRuns.EndsAsync(run);
        Assert.False(Loop.IsRunning);
    }

    [Fact]
    public async Task Dispose_from_another_thread_stops_the_loop_and_gives_the_sockets_back()
    {
        var loop = new Loop();
        loop.Add(Pull, socket => socket.RecvString());
        EventLoopTimer timer = loop.AddTimer(TimeSpan.FromSeconds(10), _ => { });
        Task run = loop.RunAsync();

        loop.Dispose();

        await LoopRuns.EndsAsync(run);
        Assert.True(timer.IsDisposed);
        Push.Send("mine again");
        Assert.Equal("mine again", await Pull.RecvStringAsync().AsTask().WaitAsync(Timeouts.Wait));
    }

    [Fact]
    public async Task A_handler_under_way_when_another_thread_disposes_the_loop_finishes_its_changes()
    {
        var loop = new Loop();
        EventLoopTimer timer = loop.AddTimer(TimeSpan.FromSeconds(10), _ => { });
        using var inHandler = new ManualResetEventSlim();
        loop.Post(() =>
        {
            inHandler.Set();
            Assert.True(SpinWait.SpinUntil(() => loop.IsDisposed, Timeouts.Wait));

            // Dispose waits for this handler; what it changes meanwhile is not refused, and is let go when the loop ends.
            timer.Restart();
            loop.Add(Pull, _ => { });
            loop.Update(Pull, null, null);
            loop.Post(() => { });
        });
        Task run = loop.RunAsync();
        Assert.True(inHandler.Wait(Timeouts.Wait));

        loop.Dispose();

        await LoopRuns.EndsAsync(run);
        Assert.True(timer.IsDisposed);
        Assert.Equal(0, loop.SocketCount);
        Push.Send("released");
        Assert.Equal("released", await Pull.RecvStringAsync().AsTask().WaitAsync(Timeouts.Wait));
    }

    [Fact]
    public async Task Dispose_inside_a_handler_stops_the_loop_when_the_handler_returns()
    {
        var loop = new Loop();
        loop.Post(loop.Dispose);

        await LoopRuns.EndsAsync(loop.RunAsync());
        Assert.True(loop.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => loop.Post(() => { }));
    }

    [Fact]
    public async Task A_socket_handler_that_throws_stops_the_loop_and_Run_rethrows_it()
    {
        Loop.Add(Pull, socket =>
        {
            socket.RecvString();
            throw new FormatException("bad request");
        });
        Push.Send("x");

        Task run = Waits.Run(Loop.Run);
        var thrown = await Assert.ThrowsAsync<FormatException>(() => run.WaitAsync(Timeouts.Wait));
        Assert.Equal("bad request", thrown.Message);
        Assert.False(Loop.IsRunning);
        Assert.True(Loop.Contains(Pull)); // registrations stay: the loop may run again
    }

    [Fact]
    public async Task Shutting_down_the_context_of_a_registered_socket_stops_the_loop_with_ContextTerminatedException()
    {
        Loop.Add(Pull, socket => socket.RecvString());
        using var running = new ManualResetEventSlim();
        Loop.Post(running.Set);
        Task run = Loop.RunAsync();
        Assert.True(running.Wait(Timeouts.Wait));

        Context.Shutdown();

        await Assert.ThrowsAsync<ContextTerminatedException>(() => run.WaitAsync(Timeouts.Wait));
    }

    [Fact]
    public async Task A_timer_or_queue_handler_that_throws_fails_the_task_of_RunAsync()
    {
        Loop.AddOneShotTimer(TimeSpan.FromMilliseconds(1), _ => throw new InvalidDataException("from a timer"));
        var fromTimer = await Assert.ThrowsAsync<InvalidDataException>(() => Loop.RunAsync().WaitAsync(Timeouts.Wait));
        Assert.Equal("from a timer", fromTimer.Message);

        EventLoopQueue<int> queue = Loop.AddQueue<int>(_ => throw new InvalidDataException("from a queue"));
        queue.Enqueue(1);
        var fromQueue = await Assert.ThrowsAsync<InvalidDataException>(() => Loop.RunAsync().WaitAsync(Timeouts.Wait));
        Assert.Equal("from a queue", fromQueue.Message);
    }
}
