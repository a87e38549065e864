using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

/// <summary>
/// A socket a Poller, an EventLoop or a running Proxy holds, called from a second thread: the socket belongs to the
/// thread that polls it, so the second thread gets an <see cref="InvalidOperationException"/> while the polling thread's
/// own calls go on (a Poll that finds another thread already inside a call, before the socket was ever polled, throws
/// instead) — never two threads inside libzmq on one socket. The races run in a child process: before the holders took
/// the socket's claim, they crashed the process (SIGSEGV, SIGFPE, a libzmq assertion) within a second.
/// </summary>
public sealed class HeldSocketFromAnotherThreadTests
{
    private static readonly TimeSpan Race = TimeSpan.FromSeconds(1.5);

    [Fact]
    public void A_second_thread_receiving_on_a_socket_a_Poller_polls_is_refused_and_nothing_crashes() =>
        IsolatedProcess.Run(PollerRace, Timeouts.Wait * 4).AssertSucceeded();

    [Fact]
    public void A_second_thread_receiving_on_a_socket_in_an_EventLoop_is_refused_and_the_loop_goes_on() =>
        IsolatedProcess.Run(EventLoopRace, Timeouts.Wait * 4).AssertSucceeded();

    [Fact]
    public void A_second_thread_calling_a_socket_of_a_running_Proxy_is_refused() =>
        IsolatedProcess.Run(ProxyRace, Timeouts.Wait * 4).AssertSucceeded();

    [Fact]
    public async Task A_Poll_that_finds_another_thread_inside_a_call_throws_and_the_socket_stays_usable()
    {
        if (!BlockedThreads.Supported)
        {
            return; // needs to see the receiving thread asleep inside libzmq
        }

        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var poller = new Poller(1);
        int index = poller.Add(pull, PollEvents.In);

        Task<string> blocked = BlockedThreads.RunUntilBlocked(() => pull.RecvString(), out int receiver);

        var refused = Assert.Throws<InvalidOperationException>(() => poller.Poll(0));
        Assert.Contains($"in use by thread {receiver}", refused.Message, StringComparison.Ordinal);

        push.Send("one");
        Assert.Equal("one", await blocked.WaitAsync(Timeouts.Wait));
        push.Send("two");
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(index));
        Assert.Equal("two", pull.RecvString());
    }

    /// <summary>Thread one polls and receives what is ready; thread two receives on the same socket without waiting.</summary>
    private static void PollerRace()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var stop = new CancellationTokenSource(Race);
        int refusedInPoller = 0;
        bool polledOnce = false;
        var feeding = BackgroundWork.Start("push", () => Feed(push, stop.Token));
        var polling = BackgroundWork.Start("poller", () =>
        {
            using var poller = new Poller(1);
            int index = poller.Add(pull, PollEvents.In);
            var buffer = new byte[64];
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    int ready = poller.Poll(10);
                    polledOnce = true;
                    if (ready > 0 && poller.IsReadable(index))
                    {
                        pull.TryRecv(buffer, out _);
                    }
                }
                catch (InvalidOperationException e) when (IsConcurrentUse(e) && !polledOnce)
                {
                    refusedInPoller++; // the other thread was inside a call before the socket was first polled
                }
            }
        });

        int refusedOutside = ReceiveUntil(pull, stop.Token, out _);
        polling.Join(Timeouts.Wait);
        feeding.Join(Timeouts.Wait);
        Console.WriteLine($"refused: {refusedOutside} calls outside the poller, {refusedInPoller} polls");
        Assert.True(refusedOutside > 0, "the other thread was never refused");
    }

    /// <summary>The loop's handler receives; another thread receives on the same socket meanwhile.</summary>
    private static void EventLoopRace()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var stop = new CancellationTokenSource(Race);
        using var loop = new Net.Zmq.EventLoop();
        using var handled = new ManualResetEventSlim();
        loop.Add(pull, socket =>
        {
            var frame = new byte[64];
            while (socket.TryRecv(frame, out _))
            {
                handled.Set();
            }
        });
        Task running = loop.RunAsync();
        var feeding = BackgroundWork.Start("push", () => Feed(push, stop.Token));

        int refused = ReceiveUntil(pull, stop.Token, out _);
        feeding.Join(Timeouts.Wait);
        handled.Reset();
        push.Send("after the race");
        bool handledAfter = handled.Wait(Timeouts.Wait);

        loop.Stop();
        Assert.True(running.Wait(Timeouts.Wait), "the loop did not stop");
        Console.WriteLine($"refused: {refused}");
        Assert.True(refused > 0, "the loop never held the socket while the other thread called it");
        Assert.True(handledAfter, "the loop stopped handling the socket after the race");
    }

    /// <summary>While the proxy runs, its frontend is its own: another thread's calls on it are refused, every one.</summary>
    private static void ProxyRace()
    {
        using var context = Sockets.NewContext();
        using var frontend = new Socket(context, SocketType.Pull);
        using var backend = new Socket(context, SocketType.Push);
        using var source = new Socket(context, SocketType.Push);
        using var sink = Sockets.New(context, SocketType.Pull);
        source.Connect(Endpoints.BindInproc(frontend));
        sink.Connect(Endpoints.BindInproc(backend));
        var proxy = BackgroundWork.Start("proxy", () => Proxy.Start(frontend, backend));

        // Once a frame went through, the proxy runs (and holds the claim of every socket it has).
        source.Send("through");
        Assert.Equal("through", sink.RecvString());

        using var stop = new CancellationTokenSource(Race);
        int refused = ReceiveUntil(frontend, stop.Token, out int calls);
        context.Shutdown();
        proxy.Join(Timeouts.Wait);
        Assert.Equal(calls, refused);
    }

    /// <summary>Receives on <paramref name="socket"/> without waiting until <paramref name="stop"/>; returns how many calls were refused.</summary>
    private static int ReceiveUntil(Socket socket, CancellationToken stop, out int calls)
    {
        int refused = 0;
        calls = 0;
        var buffer = new byte[64];
        while (!stop.IsCancellationRequested)
        {
            calls++;
            try
            {
                socket.TryRecv(buffer, out _);
            }
            catch (InvalidOperationException e) when (IsConcurrentUse(e))
            {
                refused++;
            }
        }

        return refused;
    }

    private static void Feed(Socket push, CancellationToken stop)
    {
        var payload = new byte[32];
        while (!stop.IsCancellationRequested)
        {
            push.TrySend(payload, TimeSpan.FromMilliseconds(10));
        }
    }

    private static bool IsConcurrentUse(InvalidOperationException e) =>
        e.Message.Contains("is in use by thread", StringComparison.Ordinal) || e.Message.Contains("belongs to the thread that polls it", StringComparison.Ordinal);
}
