using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Run, RunAsync, Stop and Dispose: from inside and outside, more than once, and what a handler's exception does.</summary>
public sealed class EventLoopStopTests
{
    [Fact]
    public async Task Stop_inside_a_handler_ends_Run_and_no_further_handler_runs()
    {
        using var loop = new Loop();
        int after = 0;
        loop.Post(() =>
        {
            loop.Stop();
            loop.Stop(); // idempotent
        });
        loop.Post(() => after++); // queued behind: not run once the loop stopped

        await Waits.Run(loop.Run).WaitAsync(Timeouts.Wait);
        Assert.Equal(0, after);
        Assert.False(loop.IsRunning);

        // The loop runs again, and the work left behind runs then.
        loop.Post(loop.Stop);
        await Waits.Run(loop.Run).WaitAsync(Timeouts.Wait);
        Assert.Equal(1, after);
    }

    [Fact]
    public async Task Stop_from_another_thread_completes_RunAsync_and_is_idempotent()
    {
        using var loop = new Loop();
        loop.Stop(); // not running: nothing happens
        Task run = loop.RunAsync();
        Assert.True(loop.IsRunning);
        Assert.Throws<InvalidOperationException>(() => { _ = loop.RunAsync(); });

        loop.Stop();
        loop.Stop();

        await LoopRuns.EndsAsync(run);
        Assert.False(loop.IsRunning);
    }

    [Fact]
    public async Task Dispose_from_another_thread_stops_the_loop_and_gives_the_sockets_back()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        var loop = new Loop();
        loop.Add(pull, socket => socket.RecvString());
        EventLoopTimer timer = loop.AddTimer(TimeSpan.FromSeconds(10), _ => { });
        Task run = loop.RunAsync();

        loop.Dispose();

        await LoopRuns.EndsAsync(run);
        Assert.True(timer.IsDisposed);
        push.Send("mine again");
        Assert.Equal("mine again", await pull.RecvStringAsync().AsTask().WaitAsync(Timeouts.Wait));
    }

    [Fact]
    public async Task A_handler_under_way_when_another_thread_disposes_the_loop_finishes_its_changes()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        var loop = new Loop();
        EventLoopTimer timer = loop.AddTimer(TimeSpan.FromSeconds(10), _ => { });
        using var inHandler = new ManualResetEventSlim();
        loop.Post(() =>
        {
            inHandler.Set();
            Assert.True(SpinWait.SpinUntil(() => loop.IsDisposed, Timeouts.Wait));

            // Dispose waits for this handler; what it changes meanwhile is not refused, and is let go when the loop ends.
            timer.Restart();
            loop.Add(pull, _ => { });
            loop.Update(pull, null, null);
            loop.Post(() => { });
        });
        Task run = loop.RunAsync();
        Assert.True(inHandler.Wait(Timeouts.Wait));

        loop.Dispose();

        await LoopRuns.EndsAsync(run);
        Assert.True(timer.IsDisposed);
        Assert.Equal(0, loop.SocketCount);
        push.Send("released");
        Assert.Equal("released", await pull.RecvStringAsync().AsTask().WaitAsync(Timeouts.Wait));
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
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        loop.Add(pull, socket =>
        {
            socket.RecvString();
            throw new FormatException("bad request");
        });
        push.Send("x");

        Task run = Waits.Run(loop.Run);
        var thrown = await Assert.ThrowsAsync<FormatException>(() => run.WaitAsync(Timeouts.Wait));
        Assert.Equal("bad request", thrown.Message);
        Assert.False(loop.IsRunning);
        Assert.True(loop.Contains(pull)); // registrations stay: the loop may run again
    }

    [Fact]
    public async Task Shutting_down_the_context_of_a_registered_socket_stops_the_loop_with_ContextTerminatedException()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, _) = pair;
        using var loop = new Loop();
        loop.Add(pull, socket => socket.RecvString());
        using var running = new ManualResetEventSlim();
        loop.Post(running.Set);
        Task run = loop.RunAsync();
        Assert.True(running.Wait(Timeouts.Wait));

        pair.Context.Shutdown();

        await Assert.ThrowsAsync<ContextTerminatedException>(() => run.WaitAsync(Timeouts.Wait));
    }

    [Fact]
    public async Task A_timer_or_queue_handler_that_throws_fails_the_task_of_RunAsync()
    {
        using var loop = new Loop();
        loop.AddOneShotTimer(TimeSpan.FromMilliseconds(1), _ => throw new InvalidDataException("from a timer"));
        var fromTimer = await Assert.ThrowsAsync<InvalidDataException>(() => loop.RunAsync().WaitAsync(Timeouts.Wait));
        Assert.Equal("from a timer", fromTimer.Message);

        EventLoopQueue<int> queue = loop.AddQueue<int>(_ => throw new InvalidDataException("from a queue"));
        queue.Enqueue(1);
        var fromQueue = await Assert.ThrowsAsync<InvalidDataException>(() => loop.RunAsync().WaitAsync(Timeouts.Wait));
        Assert.Equal("from a queue", fromQueue.Message);
    }
}
