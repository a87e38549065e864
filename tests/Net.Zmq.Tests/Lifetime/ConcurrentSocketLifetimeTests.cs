using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class ConcurrentSocketLifetimeTests
{
    [Fact]
    public async Task Many_threads_creating_using_and_disposing_sockets_at_once_all_succeed()
    {
        const int Threads = 8;
        const int Iterations = 40;
        var context = Sockets.NewContext();
        using var barrier = new Barrier(Threads);

        Task<int>[] workers = Enumerable.Range(0, Threads).Select(_ => Waits.Run(() =>
        {
            barrier.SignalAndWait(Timeouts.Wait);
            int exchanged = 0;
            for (int i = 0; i < Iterations; i++)
            {
                string endpoint = Endpoints.NewInproc();
                using var server = Sockets.New(context, SocketType.Pair);
                using var client = Sockets.New(context, SocketType.Pair);
                server.Bind(endpoint);
                client.Connect(endpoint);
                client.Send($"message {i}");
                if (server.RecvString() == $"message {i}")
                {
                    exchanged++;
                }
            }

            return exchanged;
        })).ToArray();

        Assert.True(await Waits.FinishesAsync(Task.WhenAll(workers), TimeSpan.FromSeconds(10)), "the workers did not finish");
        foreach (Task<int> worker in workers)
        {
            Assert.Equal(Iterations, await worker);
        }

        var stopwatch = Stopwatch.StartNew();
        context.Dispose();
        Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(2), $"Context.Dispose took {stopwatch.Elapsed}");
    }

    [Fact]
    public async Task Threads_creating_sockets_while_the_context_is_disposed_get_a_clean_exception()
    {
        const int Threads = 4;
        const int SocketsPerThread = 100;
        var context = Sockets.NewContext();
        using var running = new CountdownEvent(Threads);

        Task<Exception?>[] workers = Enumerable.Range(0, Threads).Select(_ => Waits.Run(() => CreateUntilTerminated(context, SocketsPerThread, running))).ToArray();

        Assert.True(running.Wait(Timeouts.Wait));
        context.Dispose();

        Assert.True(await Waits.FinishesAsync(Task.WhenAll(workers)), "a worker kept going after Dispose");
        foreach (Task<Exception?> worker in workers)
        {
            Exception? ex = await worker;
            Assert.True(
                ex is ContextTerminatedException or ObjectDisposedException,
                $"a worker ended with {ex?.ToString() ?? "no exception"}");
        }
    }

    /// <summary>
    /// Creates sockets (kept open, so libzmq's asynchronous reaping cannot exhaust its slots) until the context goes
    /// away; if that has not happened after <paramref name="count"/> sockets, blocks in a receive until it does.
    /// </summary>
    private static Exception? CreateUntilTerminated(Context context, int count, CountdownEvent running)
    {
        var sockets = new List<Socket>();
        bool signalled = false;
        try
        {
            for (int i = 0; i < count; i++)
            {
                var socket = new Socket(context, SocketType.Pull);
                sockets.Add(socket);
                socket.SetOption(SocketOption.Linger, 0);
                if (!signalled)
                {
                    running.Signal();
                    signalled = true;
                }
            }

            sockets[^1].WithTimeouts().RecvBytes();
            return null;
        }
        catch (Exception ex)
        {
            return ex;
        }
        finally
        {
            if (!signalled)
            {
                running.Signal();
            }

            foreach (Socket socket in sockets)
            {
                socket.Dispose();
            }
        }
    }
}
