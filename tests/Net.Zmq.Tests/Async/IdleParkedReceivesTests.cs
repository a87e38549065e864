using System.Diagnostics;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A thousand parked receives cost no CPU and no threads: the reactor's one waiting thread sleeps in epoll_wait until
/// a descriptor signals, and no thread is held per operation.
/// </summary>
[Collection(AsyncMeasurementCollection.Name)]
public sealed class IdleParkedReceivesTests(ITestOutputHelper output)
{
    private const int Parked = 1000;

    [Fact]
    public async Task A_thousand_parked_receives_leave_the_reactor_idle_and_the_thread_pool_unchanged()
    {
        using var context = new Context(ioThreads: 1, maxSockets: Parked + 16) { DefaultLinger = TimeSpan.Zero };
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        int threadsBefore = ThreadPool.ThreadCount;
        var sockets = new Socket[Parked];
        var receives = new Task<int>[Parked];
        try
        {
            for (int i = 0; i < Parked; i++)
            {
                sockets[i] = new Socket(context, SocketType.Pull);
                sockets[i].Bind(SocketKit.NewInprocEndpoint());
                receives[i] = sockets[i].RecvAsync(new byte[8], timeout.Token).AsTask();
            }

            Assert.All(receives, receive => Assert.False(receive.IsCompleted));
            using var process = Process.GetCurrentProcess();
            TimeSpan cpuBefore = process.TotalProcessorTime;

            // The measurement window, not a synchronisation: nothing happens on these sockets meanwhile. This
            // collection runs alone, so the process's CPU is the reactor's and the runtime's own.
            await Task.Delay(TimeSpan.FromSeconds(1));
            process.Refresh();
            double cpuMilliseconds = (process.TotalProcessorTime - cpuBefore).TotalMilliseconds;
            int threadGrowth = ThreadPool.ThreadCount - threadsBefore;
            output.WriteLine($"process CPU over 1 s with {Parked} parked receives: {cpuMilliseconds:F0} ms; thread pool grew by {threadGrowth}");

            // A reactor that polled or spun would use hundreds of milliseconds in a second.
            Assert.True(cpuMilliseconds <= 50, $"the idle process used {cpuMilliseconds:F0} ms of CPU in one second");
            Assert.True(threadGrowth < 20, $"the thread pool grew by {threadGrowth} threads");
            Assert.All(receives, receive => Assert.False(receive.IsCompleted));

            // Still awake: a frame to the last socket completes its receive.
            using var push = new Socket(context, SocketType.Push);
            push.Connect(sockets[^1].LastEndpoint);
            push.Send("wake");
            Assert.True(await Waits.FinishesAsync(receives[^1]), "the last parked receive never completed");
            Assert.Equal(4, await receives[^1]);
        }
        finally
        {
            foreach (Socket? socket in sockets)
            {
                socket?.Dispose();
            }
        }

        Assert.True(await Waits.FinishesAsync(Task.WhenAll(receives[..^1])), "a parked receive outlived its socket");
        Assert.All(receives[..^1], receive => Assert.IsType<ObjectDisposedException>(receive.Exception?.InnerException));
    }
}
