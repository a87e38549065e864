using System.Diagnostics;

namespace Net.Zmq.Soak.Scenarios;

/// <summary>Resources that must come back: file descriptors after socket churn, memory after a steady workload.</summary>
public static class ResourceScenarios
{
    private static readonly TimeSpan s_settle = TimeSpan.FromSeconds(20);

    private static readonly SocketType[] s_types =
    [
        SocketType.Pair, SocketType.Pub, SocketType.Sub, SocketType.Req, SocketType.Rep, SocketType.Dealer,
        SocketType.Router, SocketType.Pull, SocketType.Push, SocketType.XPub, SocketType.XSub, SocketType.Stream,
    ];

    /// <summary>
    /// Creates and disposes <paramref name="sockets"/> sockets of every type (every tenth pair bound and connected
    /// over TCP, every tenth one bound to IPC); checks that /proc/self/fd returns to its count before the churn
    /// while the context lives, and to its count before the context once the context is disposed. The peak shows how
    /// far libzmq's asynchronous closing lags behind.
    /// </summary>
    public static ScenarioResult SocketChurn(int sockets)
    {
        var clock = Stopwatch.StartNew();
        int beforeContext = ProcessStats.OpenFileDescriptors();
        int baseline;
        int peak = 0;
        bool backWithContext;
        int afterChurn = 0;
        // libzmq closes sockets on its reaper thread, after Dispose returns: a tight loop can run ahead of it by a
        // thousand sockets on a loaded machine, past the default limit of 1023 per context (EMFILE).
        using (var context = new Context(ioThreads: 1, maxSockets: 16_384) { DefaultLinger = TimeSpan.Zero })
        {
            // The context starts its I/O and reaper threads (and their descriptors) with its first socket; this one
            // stays open through the churn so that the baseline includes them.
            using var keeper = new Socket(context, SocketType.Pair);
            baseline = ProcessStats.OpenFileDescriptors();

            string ipcDirectory = Directory.CreateTempSubdirectory("netzmq-churn-").FullName;
            try
            {
                for (int i = 0; i < sockets; i++)
                {
                    using var socket = new Socket(context, s_types[i % s_types.Length]);
                    if (i % 10 == 0)
                    {
                        ConnectPair(context, socket);
                    }
                    else if (i % 10 == 5)
                    {
                        socket.Bind($"ipc://{ipcDirectory}/{i}");
                    }

                    if (i % 1000 == 999)
                    {
                        peak = Math.Max(peak, ProcessStats.OpenFileDescriptors());
                    }
                }
            }
            finally
            {
                Directory.Delete(ipcDirectory, recursive: true);
            }

            backWithContext = ProcessStats.WaitUntil(() => ProcessStats.OpenFileDescriptors() <= baseline, s_settle);
            afterChurn = ProcessStats.OpenFileDescriptors();
        }

        bool backWithoutContext = ProcessStats.WaitUntil(() => ProcessStats.OpenFileDescriptors() <= beforeContext, s_settle);
        int afterContext = ProcessStats.OpenFileDescriptors();
        clock.Stop();
        string figures = $"{sockets:N0} sockets; fds: {beforeContext} before the context, {baseline} with it, " +
                         $"peak {peak} during the churn, {afterChurn} after it, {afterContext} after the context was disposed";
        return new ScenarioResult("Socket churn, file descriptors", backWithContext && backWithoutContext, figures, clock.Elapsed);
    }

    /// <summary>
    /// Runs <paramref name="rounds"/> rounds of a mixed workload (PUSH/PULL into a reused <see cref="Message"/>,
    /// multipart DEALER/ROUTER, REQ/REP strings, fresh sockets each round); the first round is warm-up. Reports how
    /// much the managed heap (after a full collection) and the RSS grew from the end of warm-up to the end, and passes
    /// when they stay under <paramref name="managedLimit"/> and <paramref name="residentLimit"/> bytes.
    /// </summary>
    public static ScenarioResult MemoryGrowth(int rounds, int messagesPerRound, long managedLimit, long residentLimit)
    {
        var clock = Stopwatch.StartNew();
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        long managedAfterWarmUp = 0, residentAfterWarmUp = 0, managedPeak = 0, residentPeak = 0;
        for (int round = 0; round < rounds; round++)
        {
            RunMixedRound(context, messagesPerRound);
            long managed = ProcessStats.ManagedBytesAfterCollection();
            long resident = ProcessStats.ResidentBytes();
            if (round == 0)
            {
                managedAfterWarmUp = managed;
                residentAfterWarmUp = resident;
            }

            managedPeak = Math.Max(managedPeak, managed);
            residentPeak = Math.Max(residentPeak, resident);
        }

        long managedEnd = ProcessStats.ManagedBytesAfterCollection();
        long residentEnd = ProcessStats.ResidentBytes();
        clock.Stop();
        long managedGrowth = managedEnd - managedAfterWarmUp;
        long residentGrowth = residentEnd - residentAfterWarmUp;
        string figures = $"{rounds} rounds x {messagesPerRound:N0} messages (x3 patterns) after 1 warm-up round; " +
                         $"managed heap {Kb(managedAfterWarmUp)} -> {Kb(managedEnd)} (growth {Kb(managedGrowth)}, peak {Kb(managedPeak)}); " +
                         $"RSS {Mb(residentAfterWarmUp)} -> {Mb(residentEnd)} (growth {Mb(residentGrowth)}, peak {Mb(residentPeak)})";
        return new ScenarioResult("Memory after warm-up", managedGrowth < managedLimit && residentGrowth < residentLimit, figures, clock.Elapsed);
    }

    private static void ConnectPair(Context context, Socket bound)
    {
        bound.Bind("tcp://127.0.0.1:*");
        SocketType peerType = bound.Type switch
        {
            SocketType.Pub or SocketType.XPub => SocketType.Sub,
            SocketType.Sub or SocketType.XSub => SocketType.Pub,
            SocketType.Req => SocketType.Rep,
            SocketType.Rep => SocketType.Req,
            SocketType.Pull => SocketType.Push,
            SocketType.Push => SocketType.Pull,
            SocketType.Stream => SocketType.Stream,
            SocketType.Pair => SocketType.Pair,
            _ => SocketType.Dealer,
        };
        using var peer = new Socket(context, peerType);
        peer.Connect(bound.LastEndpoint);
    }

    private static void RunMixedRound(Context context, int messages)
    {
        using (var pull = new Socket(context, SocketType.Pull))
        using (var push = new Socket(context, SocketType.Push))
        using (var frame = new Message())
        {
            pull.Bind("tcp://127.0.0.1:*");
            push.Connect(pull.LastEndpoint);
            Span<byte> payload = stackalloc byte[100];
            for (int i = 0; i < messages; i++)
            {
                payload[0] = (byte)i;
                push.Send(payload);
                pull.Recv(frame);
            }
        }

        using (var router = new Socket(context, SocketType.Router))
        using (var dealer = new Socket(context, SocketType.Dealer))
        using (var received = new MultipartMessage())
        {
            router.Bind("tcp://127.0.0.1:*");
            dealer.Connect(router.LastEndpoint);
            Span<byte> part = stackalloc byte[32];
            for (int i = 0; i < messages; i++)
            {
                dealer.Send(part, SendFlags.SendMore);
                dealer.Send(part);
                router.RecvMultipart(received);
            }
        }

        using (var rep = new Socket(context, SocketType.Rep))
        using (var req = new Socket(context, SocketType.Req))
        {
            rep.Bind("inproc://netzmq-soak-memory");
            req.Connect("inproc://netzmq-soak-memory");
            for (int i = 0; i < messages; i++)
            {
                req.Send("ping");
                rep.RecvString();
                rep.Send("pong");
                req.RecvString();
            }
        }
    }

    private static string Kb(long bytes) => $"{bytes / 1024.0:N0} KB";

    private static string Mb(long bytes) => $"{bytes / (1024.0 * 1024):N1} MB";
}
