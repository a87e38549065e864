using System.Globalization;
using Net.Zmq.Async;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A thousand parked receives cost no CPU and no threads: the reactor's threads sleep in epoll_wait until a descriptor
/// signals, and no thread is held per operation.
/// </summary>
[Collection(ProcessMeasurementCollection.Name)]
public sealed class IdleParkedReceivesTests(ITestOutputHelper output)
{
    private const int Parked = 1000;

    [Fact]
    public async Task A_thousand_parked_receives_leave_the_reactor_idle_and_the_thread_pool_unchanged()
    {
        if (!OperatingSystem.IsLinux())
        {
            output.WriteLine("Skipped: reads the reactor threads' CPU time from /proc, which needs Linux.");
            return;
        }

        using var context = Sockets.NewContext(maxSockets: Parked + 16);
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        int threadsBefore = ThreadPool.ThreadCount;
        var sockets = new Socket[Parked];
        var receives = new Task<int>[Parked];
        try
        {
            for (int i = 0; i < Parked; i++)
            {
                sockets[i] = new Socket(context, SocketType.Pull);
                sockets[i].Bind(Endpoints.NewInproc());
                receives[i] = sockets[i].RecvAsync(new byte[8], timeout.Token).AsTask();
            }

            Assert.All(receives, receive => Assert.False(receive.IsCompleted));
            string[] reactorStats = FindReactorStats();
            long ticksBefore = CpuTicks(reactorStats);

            // The measurement window, not a synchronisation: nothing happens on these sockets meanwhile.
            await Task.Delay(TimeSpan.FromSeconds(1));
            long ticks = CpuTicks(reactorStats) - ticksBefore;
            int threadGrowth = ThreadPool.ThreadCount - threadsBefore;
            output.WriteLine($"reactor CPU over 1 s with {Parked} parked receives: {ticks} clock ticks on {reactorStats.Length} threads; thread pool grew by {threadGrowth}");

            // A clock tick is 10 ms of CPU: a reactor that polled or spun would use tens of them in a second.
            Assert.True(ticks <= 2, $"the idle reactor threads used {ticks} clock ticks of CPU in one second");
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

    /// <summary>The /proc stat files of the threads named <see cref="SocketReactor.ThreadName"/>.</summary>
    private static string[] FindReactorStats()
    {
        string[] stats = Directory.GetDirectories("/proc/self/task")
            .Where(task => ThreadName(task) == SocketReactor.ThreadName)
            .Select(task => Path.Combine(task, "stat"))
            .ToArray();
        Assert.True(stats.Length > 0, $"no thread named '{SocketReactor.ThreadName}' in /proc/self/task");
        return stats;
    }

    /// <summary>A thread's name, or null when it exited after the list was read (a thread-pool thread retiring).</summary>
    private static string? ThreadName(string task)
    {
        try
        {
            return File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n');
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>utime + stime of threads, in clock ticks (fields 14 and 15 of each stat line).</summary>
    private static long CpuTicks(string[] statPaths)
    {
        long ticks = 0;
        foreach (string statPath in statPaths)
        {
            string stat = File.ReadAllText(statPath);

            // The command name (field 2) is in parentheses and may hold spaces; the fields after it are plain.
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            ticks += long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
        }

        return ticks;
    }
}
