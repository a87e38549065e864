using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Hosting.Tests;

/// <summary><see cref="ZmqServiceCollectionExtensions.AddZmqContext"/> in a real host, in-process.</summary>
public sealed class AddZmqContextTests
{
    private static IHost BuildHost(Action<ZmqContextOptions>? configure = null, CollectingLogger? logs = null) =>
        new HostBuilder()
            .ConfigureLogging(logging =>
            {
                if (logs is not null)
                {
                    logging.AddProvider(logs).SetMinimumLevel(LogLevel.Trace);
                }
            })
            .ConfigureServices(services => services.AddZmqContext(configure))
            .Build();

    /// <summary>A REP socket's blocking receive, on a thread of its own, given up after 30 s if nothing ends it sooner.</summary>
    private static Task<string> BlockedReceive(Context context) => Waits.StartBlocked(() =>
    {
        using var server = new Socket(context, SocketType.Rep);
        server.SetOption(SocketOption.ReceiveTimeout, TimeSpan.FromSeconds(30));
        server.Bind("tcp://127.0.0.1:*");
        return server.RecvString();
    });

    [Fact]
    public async Task Stopping_the_host_ends_a_blocking_Recv_at_once_with_ContextTerminatedException()
    {
        using IHost host = BuildHost();
        await host.StartAsync();
        Task<string> receive = BlockedReceive(host.Services.GetRequiredService<Context>());

        var stopping = Stopwatch.StartNew();
        // Read on the receiving thread as the receive ends: the test's own continuations may wait for a thread-pool
        // thread (the pool adds one about each half second when parallel tests block theirs), which is not the stop's.
        Task<TimeSpan> ended = receive.ContinueWith(_ => stopping.Elapsed, TaskContinuationOptions.ExecuteSynchronously);
        await host.StopAsync();

        Assert.True(await Waits.FinishesAsync(receive), "the blocked Recv outlived the host's stop");
        await Assert.ThrowsAsync<ContextTerminatedException>(() => receive);
        TimeSpan elapsed = await ended;
        Assert.True(elapsed < TimeSpan.FromSeconds(1), $"the receive ended {elapsed.TotalMilliseconds:F0} ms after the stop began");
    }

    [Fact]
    public async Task A_worker_blocked_in_Recv_lets_the_host_stop_at_once()
    {
        using IHost host = new HostBuilder()
            .ConfigureServices(services => services.AddZmqContext().AddHostedService<BlockingWorker>())
            .Build();
        await host.StartAsync();
        BlockingWorker worker = host.Services.GetServices<IHostedService>().OfType<BlockingWorker>().Single();
        Assert.True(worker.Receiving.Wait(Timeouts.Wait), "the worker did not start receiving");

        var stopping = Stopwatch.StartNew();
        await host.StopAsync().WaitAsync(Timeouts.Wait);
        stopping.Stop();

        Assert.True(stopping.Elapsed < TimeSpan.FromSeconds(1), $"stopping took {stopping.ElapsedMilliseconds} ms");
        Assert.IsType<ContextTerminatedException>(worker.Ending);
    }

    [Fact]
    public async Task The_context_is_disposed_with_the_container_and_logs_its_shutdown()
    {
        var logs = new CollectingLogger();
        Context context;
        using (IHost host = BuildHost(logs: logs))
        {
            await host.StartAsync();
            context = host.Services.GetRequiredService<Context>();
            Assert.Same(context, host.Services.GetRequiredService<Context>());
            await host.StopAsync();
            Assert.False(context.IsDisposed, "the host's stop shuts the context down; the container disposes it");
        }

        Assert.True(context.IsDisposed);
        CollectingLogger.Entry shutDown = logs.WaitFor(e => e.Category == "Net.Zmq.Context" && e.EventId.Id == 2, "about the context's shutdown");
        Assert.Equal(LogLevel.Information, shutDown.Level);
    }

    [Fact]
    public void The_options_reach_the_context()
    {
        using IHost host = BuildHost(options =>
        {
            options.IoThreads = 2;
            options.MaxSockets = 17;
            options.Ipv6 = true;
            options.MaxMessageSize = 4096;
            options.DefaultLinger = TimeSpan.FromMilliseconds(250);
        });

        Context context = host.Services.GetRequiredService<Context>();

        Assert.Equal(2, context.GetOption(ContextOption.IoThreads));
        Assert.Equal(17, context.GetOption(ContextOption.MaxSockets));
        Assert.Equal(1, context.GetOption(ContextOption.Ipv6));
        Assert.Equal(4096, context.GetOption(ContextOption.MaxMessageSize));
        Assert.Equal(TimeSpan.FromMilliseconds(250), context.DefaultLinger);
    }

    [Fact]
    public async Task With_ShutdownWhenStopping_off_the_context_outlives_the_host_s_stop()
    {
        using IHost host = BuildHost(options => options.ShutdownWhenStopping = false);
        await host.StartAsync();
        Context context = host.Services.GetRequiredService<Context>();

        await host.StopAsync();

        using var socket = new Socket(context, SocketType.Pair); // a shut-down context refuses new sockets
        Assert.False(socket.IsDisposed);
    }

    [Fact]
    public void Without_a_host_the_context_is_still_registered_and_disposed_with_the_provider()
    {
        Context context;
        using (ServiceProvider provider = new ServiceCollection().AddZmqContext().BuildServiceProvider())
        {
            context = provider.GetRequiredService<Context>();
            using var socket = new Socket(context, SocketType.Pair);
        }

        Assert.True(context.IsDisposed);
    }

    /// <summary>A BackgroundService that blocks in Recv on the registered context until the context ends it.</summary>
    private sealed class BlockingWorker(Context context) : BackgroundService
    {
        public ManualResetEventSlim Receiving { get; } = new();

        public Exception? Ending { get; private set; }

        protected override Task ExecuteAsync(CancellationToken stoppingToken) => Waits.Run(() =>
        {
            using var server = new Socket(context, SocketType.Rep);
            server.SetOption(SocketOption.ReceiveTimeout, TimeSpan.FromSeconds(30));
            server.Bind("tcp://127.0.0.1:*");
            Receiving.Set();
            try
            {
                server.RecvString();
            }
            catch (ZmqException ex)
            {
                Ending = ex;
            }
        });

        public override void Dispose()
        {
            Receiving.Dispose();
            base.Dispose();
        }
    }
}
