using System.Runtime.Versioning;

namespace Net.Zmq.Samples;

/// <summary>
/// Receiving on a DEALER in one thread while other threads send: a socket refuses a second thread while one is inside
/// a call, so the habit of NetMQ programs takes one of three shapes here (docs/migrating.md): the socket in an
/// <see cref="EventLoop"/> that takes what to send from a queue; the async API, one receive loop and one send at a time;
/// or a draft CLIENT, which libzmq makes thread-safe.
/// </summary>
internal sealed class TwoThreadsSample : ISample
{
    private const int Senders = 3;
    private const int PerSender = 100;
    private const int Requests = Senders * PerSender;

    public string Name => "two-threads";

    public string Description => "a DEALER that receives on one thread while three threads send: EventLoop + queue, async, draft CLIENT";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket server = Sample.CreateSocket(context, SocketType.Router);
        server.Bind(Sample.AnyPort);
        string endpoint = server.LastEndpoint; // read now: from here on the server belongs to the echo thread
        var echo = new Thread(() => Echo(server)) { Name = "ROUTER echo" };
        echo.Start();
        try
        {
            WithEventLoopAndQueue(context, endpoint, log);
            if (OperatingSystem.IsLinux() || OperatingSystem.IsWindows())
            {
                WithAsync(context, endpoint, log);
            }
            else
            {
                log.Info("async skipped: the async API waits with epoll (Linux) or WSAPoll (Windows)");
            }
        }
        finally
        {
            context.Shutdown(); // ends the echo thread's blocking receive
            echo.Join();
        }

        WithDraftClient(log);
    }

    /// <summary>The socket belongs to the loop: received on the loop thread, sent there from a queue any thread feeds.</summary>
    private static void WithEventLoopAndQueue(Context context, string endpoint, SampleLog log)
    {
        using var dealer = new Socket(context, SocketType.Dealer);
        dealer.Connect(endpoint);
        using var loop = new EventLoop();
        int replies = 0;
        using var allReplied = new ManualResetEventSlim();
        loop.Add(dealer, socket =>
        {
            while (socket.TryRecvString(out string? _))
            {
                if (++replies == Requests)
                {
                    allReplied.Set();
                }
            }
        });
        EventLoopQueue<string> outbox = loop.AddQueue<string>(request => dealer.Send(request));
        Task running = loop.RunAsync();

        Parallel.For(0, Senders, sender =>
        {
            for (int i = 0; i < PerSender; i++)
            {
                outbox.Enqueue($"loop {sender}.{i}");
            }
        });

        log.Check(allReplied.Wait(Sample.Timeout), $"EventLoop + queue: {Volatile.Read(ref replies)} of {Requests} replies");
        loop.Stop();
        log.Check(running.Wait(Sample.Timeout), "the loop stopped");
        log.Info($"EventLoop + queue: {Senders} threads sent {Requests} requests through the queue, the loop thread received {replies} replies");
    }

    /// <summary>The async API: one receive loop, and sends one at a time from any thread (serialised by a semaphore).</summary>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private static void WithAsync(Context context, string endpoint, SampleLog log)
    {
        using var dealer = new Socket(context, SocketType.Dealer);
        dealer.Connect(endpoint);
        using var cancel = new CancellationTokenSource(Sample.Timeout);
        Task<int> receiving = Task.Run(async () =>
        {
            int replies = 0;
            await foreach (Message reply in dealer.RecvAllAsync(cancel.Token))
            {
                if (++replies == Requests)
                {
                    break;
                }
            }

            return replies;
        });

        using var oneSendAtATime = new SemaphoreSlim(1);
        Task[] senders = Enumerable.Range(0, Senders).Select(sender => Task.Run(async () =>
        {
            for (int i = 0; i < PerSender; i++)
            {
                await oneSendAtATime.WaitAsync(cancel.Token);
                try
                {
                    await dealer.SendAsync($"async {sender}.{i}", cancel.Token);
                }
                finally
                {
                    oneSendAtATime.Release();
                }
            }
        })).ToArray();

        Task.WaitAll(senders);
        int received = receiving.GetAwaiter().GetResult();
        log.Check(received == Requests, $"async: {received} of {Requests} replies");
        log.Info($"async: {Senders} tasks sent {Requests} requests with SendAsync while RecvAllAsync received {received} replies");
    }

    /// <summary>A draft CLIENT is thread-safe: one thread blocks in a receive while others send.</summary>
    private static void WithDraftClient(SampleLog log)
    {
        if (!Context.Has("draft"))
        {
            log.Info($"draft CLIENT skipped: libzmq {Context.Version} has no draft API");
            return;
        }

        using var context = new Context();
        using Socket server = Sample.CreateSocket(context, SocketType.Server);
        server.Bind(Sample.AnyPort);
        using Socket client = Sample.CreateSocket(context, SocketType.Client);
        client.Connect(server.LastEndpoint);

        var answering = new Thread(() => Failing(log, "SERVER", () =>
        {
            using var request = new Message();
            for (int i = 0; i < Requests; i++)
            {
                server.Recv(request);
                using var reply = new Message($"echo {request}") { RoutingId = request.RoutingId };
                server.Send(reply);
            }
        }));
        int replies = 0;
        var receiving = new Thread(() => Failing(log, "CLIENT receiver", () =>
        {
            for (; replies < Requests; replies++)
            {
                client.RecvString(); // blocks while the other threads send on the same socket
            }
        }));
        answering.Start();
        receiving.Start();
        Parallel.For(0, Senders, sender =>
        {
            for (int i = 0; i < PerSender; i++)
            {
                client.Send($"client {sender}.{i}");
            }
        });

        log.Check(receiving.Join(Sample.Timeout) && answering.Join(Sample.Timeout), $"draft CLIENT: {Volatile.Read(ref replies)} of {Requests} replies");
        log.Info($"draft CLIENT: {Senders} threads sent {Requests} requests while another thread received {replies} replies");
    }

    /// <summary>Runs <paramref name="body"/>; a receive that ran into its timeout fails the sample instead of the process.</summary>
    private static void Failing(SampleLog log, string who, Action body)
    {
        try
        {
            body();
        }
        catch (ZmqException e)
        {
            log.Check(false, $"{who}: {e.Message}");
        }
    }

    /// <summary>Answers every [routing id][text] with [routing id][echo text] until the context is shut down.</summary>
    private static void Echo(Socket server)
    {
        try
        {
            while (true)
            {
                if (!server.TryRecvMultipart(Sample.Timeout, out MultipartMessage? received))
                {
                    continue;
                }

                using (received)
                {
                    server.Send(received[0].Data, SendFlags.SendMore);
                    server.Send("echo " + received[1].ToString());
                }
            }
        }
        catch (ContextTerminatedException)
        {
            // the sample is over
        }
    }
}
