using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Code that blocks after an await of a parked operation holds up nothing but itself: it runs on the thread pool, or,
/// with inline continuations on, on a reactor thread while another one goes on waiting (<see cref="InlineContinuationsTests"/>).
/// </summary>
public sealed class ContinuationThreadTests
{
    [Fact]
    public Task A_continuation_that_blocks_does_not_hold_up_other_sockets() => BlockingContinuationHoldsUpNoOtherSocketAsync();

    /// <summary>
    /// Twenty rounds: a parked receive whose continuation then blocks, and meanwhile another socket's parked receive,
    /// which must complete.
    /// </summary>
    internal static async Task BlockingContinuationHoldsUpNoOtherSocketAsync()
    {
        using Context context = Sockets.NewContext();
        using var blockedPull = new Socket(context, SocketType.Pull);
        using var blockedPush = new Socket(context, SocketType.Push);
        using var otherPull = new Socket(context, SocketType.Pull);
        using var otherPush = new Socket(context, SocketType.Push);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        blockedPull.Bind(Endpoints.EphemeralTcp);
        blockedPush.Connect(blockedPull.LastEndpoint);
        otherPull.Bind(Endpoints.EphemeralTcp);
        otherPush.Connect(otherPull.LastEndpoint);
        using var release = new ManualResetEventSlim();
        using var blocking = new ManualResetEventSlim();

        for (int round = 0; round < 20; round++)
        {
            release.Reset();
            blocking.Reset();

            // Two receives park (no frame yet); the first one's continuation blocks until released.
            ValueTask<int> first = blockedPull.RecvAsync(new byte[8], timeout.Token);
            ValueTask<int> other = otherPull.RecvAsync(new byte[8], timeout.Token);
            Assert.False(first.IsCompleted);
            Assert.False(other.IsCompleted);
            Task blocked = BlockAfter(first, blocking, release, timeout.Token);

            blockedPush.Send("block");
            Assert.True(blocking.Wait(Timeouts.Wait), $"round {round}: the first receive never completed");

            // With that continuation still blocking its thread, another socket's parked receive completes.
            otherPush.Send("other");
            Task<int> otherTask = other.AsTask();
            Assert.True(await Waits.FinishesAsync(otherTask), $"round {round}: a receive waited behind a blocked continuation");
            Assert.Equal(5, await otherTask);

            release.Set();
            await blocked;
        }
    }

    /// <summary>
    /// Parks a send (until connected) and then receives (until a frame is sent), from a thread-pool thread with no
    /// synchronization context, and returns the thread that ran the code after each await of a parked operation.
    /// </summary>
    internal static async Task<List<(string? Name, bool IsPoolThread)>> ParkedContinuationThreadsAsync()
    {
        using Context context = Sockets.NewContext();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        pull.Bind(Endpoints.EphemeralTcp);
        string endpoint = pull.LastEndpoint;

        // Task.Run: no synchronization context, so each continuation runs where Net.Zmq schedules it.
        var threads = await Task.Run(async () =>
        {
            var seen = new List<(string? Name, bool IsPoolThread)>();
            ValueTask sent = push.SendAsync("parked until connected", timeout.Token);
            Assert.False(sent.IsCompleted);
            push.Connect(endpoint);
            await sent.ConfigureAwait(false);
            seen.Add((Thread.CurrentThread.Name, Thread.CurrentThread.IsThreadPoolThread));

            using var message = new Message();
            await pull.RecvAsync(message, timeout.Token).ConfigureAwait(false);
            Assert.Equal("parked until connected", message.ToString());
            for (int i = 0; i < 50; i++)
            {
                // Nothing is waiting, so the receive parks (unless the frame below outruns this check).
                ValueTask received = pull.RecvAsync(message, timeout.Token);
                bool parked = !received.IsCompleted;
                push.Send("x");
                await received.ConfigureAwait(false);
                if (parked)
                {
                    seen.Add((Thread.CurrentThread.Name, Thread.CurrentThread.IsThreadPoolThread));
                }
            }

            return seen;
        });

        Assert.True(threads.Count > 10, $"only {threads.Count} operations parked");
        return threads;
    }

    private static async Task BlockAfter(ValueTask<int> receive, ManualResetEventSlim blocking, ManualResetEventSlim release, CancellationToken cancellationToken)
    {
        await receive.ConfigureAwait(false);
        blocking.Set();
        release.Wait(cancellationToken);
    }
}
