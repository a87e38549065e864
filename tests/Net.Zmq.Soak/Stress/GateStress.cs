using System.Diagnostics;

namespace Net.Zmq.Soak.Stress;

/// <summary>
/// Races every door into a socket's gate for a bounded time (<c>dotnet Net.Zmq.Soak.dll gate-stress SECONDS</c>): in
/// each round two threads make synchronous calls on one socket while others make its first <c>RecvAsync</c>, add it
/// to a <see cref="Poller"/> and poll it, add it to a running <see cref="EventLoop"/> and take it out, and dispose it.
/// A refused call must be one of the library's clear exceptions; anything else, or a round that does not end, fails
/// the run (exit 1, or 2 for a hang); a native crash ends the process, which its parent sees. At the end every
/// descriptor the rounds opened must be closed again (<c>/proc/self/fd</c>).
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
internal static class GateStress
{
    private static readonly TimeSpan RoundLimit = TimeSpan.FromSeconds(10);

    public static int Run(string[] args)
    {
        double seconds = args.Length > 0 ? double.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 5;
        using var loop = new EventLoop();
        Task looping = loop.RunAsync();

        // Opens what lives as long as the process (the async reactor, the loop's waker) before counting.
        using (var context = new Context())
        using (var socket = new Socket(context, SocketType.Dealer))
        {
            _ = socket.RecvAsync(new byte[1], new CancellationToken(canceled: true));
        }

        Round(loop, seed: 0);
        int descriptorsBefore = OpenDescriptors();
        var refused = new Dictionary<string, int>();
        var unexpected = new List<Exception>();
        var stopwatch = Stopwatch.StartNew();
        int rounds = 0;
        while (stopwatch.Elapsed.TotalSeconds < seconds && unexpected.Count == 0)
        {
            RoundResult result = Round(loop, ++rounds);
            if (result.Hung)
            {
                Console.WriteLine($"hang: round {rounds} did not end within {RoundLimit.TotalSeconds} s");
                return 2;
            }

            foreach (Exception e in result.Errors)
            {
                if (IsClearRefusal(e))
                {
                    string key = $"{e.GetType().Name}: {FirstWords(e.Message)}";
                    refused[key] = refused.GetValueOrDefault(key) + 1;
                }
                else
                {
                    unexpected.Add(e);
                }
            }
        }

        loop.Stop();
        looping.Wait(RoundLimit);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        int descriptorsAfter = OpenDescriptors();

        Console.WriteLine($"rounds {rounds}");
        foreach ((string kind, int count) in refused.OrderBy(pair => pair.Key, StringComparer.Ordinal))
        {
            Console.WriteLine($"refused {count} x {kind}");
        }

        Console.WriteLine($"descriptors before {descriptorsBefore} after {descriptorsAfter}");
        foreach (Exception e in unexpected)
        {
            Console.WriteLine($"unexpected: {e}");
        }

        return unexpected.Count == 0 && descriptorsAfter <= descriptorsBefore ? 0 : 1;
    }

    private sealed record RoundResult(bool Hung, List<Exception> Errors);

    /// <summary>One round: a fresh pair of sockets in a fresh context, every door raced once, everything closed.</summary>
    private static RoundResult Round(EventLoop loop, int seed)
    {
        var errors = new List<Exception>();
        var random = new Random(seed);
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        var socket = new Socket(context, SocketType.Dealer);
        using var peer = new Socket(context, SocketType.Dealer);
        string endpoint = $"inproc://gate-stress-{seed}";
        socket.Bind(endpoint);
        peer.Connect(endpoint);
        for (int i = 0; i < 64; i++)
        {
            peer.Send("x"u8, SendFlags.DontWait); // frames waiting, so that receives and polls find work
        }

        using var start = new Barrier(6);
        int disposeAfter = random.Next(0, 5_000);
        Action[] doors =
        [
            () => SyncCalls(socket, start, errors),
            () => SyncCalls(socket, start, errors),
            () =>
            {
                start.SignalAndWait();
                using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(20));
                var buffer = new byte[16];
                socket.RecvAsync(buffer, cancel.Token).AsTask().Wait(RoundLimit);
            },
            () =>
            {
                using var poller = new Poller(1);
                start.SignalAndWait();
                int index = poller.Add(socket, PollEvents.In);
                for (int i = 0; i < 100; i++)
                {
                    if (poller.Poll(0) > 0 && poller.IsReadable(index))
                    {
                        socket.TryRecv(new byte[16], out _);
                    }
                }

                poller.Remove(index);
            },
            () =>
            {
                start.SignalAndWait();
                // A handler's exception would stop the loop; a refusal here (the Poller door polling the socket on its
                // thread at the same time, or the socket disposed) is one of the clear refusals this stress counts.
                loop.Add(socket, s => TryRecvOrRecordRefusal(s, errors));
                Thread.SpinWait(1000);
                loop.Remove(socket);
            },
            () =>
            {
                start.SignalAndWait();
                Thread.SpinWait(disposeAfter * 100);
                socket.Dispose();
            },
        ];

        var threads = doors.Select(door => new Thread(() =>
        {
            try
            {
                door();
            }
            catch (AggregateException e)
            {
                lock (errors)
                {
                    errors.AddRange(e.InnerExceptions);
                }
            }
            catch (Exception e)
            {
                Record(errors, e);
            }
        }) { IsBackground = true }).ToArray();
        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        var deadline = Stopwatch.StartNew();
        foreach (Thread thread in threads)
        {
            if (!thread.Join(RoundLimit - deadline.Elapsed < TimeSpan.Zero ? TimeSpan.Zero : RoundLimit - deadline.Elapsed))
            {
                return new RoundResult(Hung: true, errors);
            }
        }

        loop.Remove(socket);
        socket.Dispose();
        return new RoundResult(Hung: false, errors);
    }

    /// <summary>Adds <paramref name="e"/> to the round's errors, which every door's thread writes to.</summary>
    private static void Record(List<Exception> errors, Exception e)
    {
        lock (errors)
        {
            errors.Add(e);
        }
    }

    private static void TryRecvOrRecordRefusal(Socket socket, List<Exception> errors)
    {
        try
        {
            socket.TryRecv(new byte[16], out _);
        }
        catch (InvalidOperationException e)
        {
            Record(errors, e);
        }
    }

    private static void SyncCalls(Socket socket, Barrier start, List<Exception> errors)
    {
        start.SignalAndWait();
        var buffer = new byte[16];
        for (int i = 0; i < 200; i++)
        {
            try
            {
                socket.TryRecv(buffer, out _);
                socket.Send("y"u8, SendFlags.DontWait);
            }
            catch (InvalidOperationException e)
            {
                // Refused while another thread or a holder had the socket: the next call may get it.
                Record(errors, e);
            }
        }
    }

    /// <summary>The exceptions the gate refuses a call with: each names the cause and the fix.</summary>
    private static bool IsClearRefusal(Exception e) => e switch
    {
        ObjectDisposedException or OperationCanceledException => true,
        InvalidOperationException => e.Message.Contains("thread", StringComparison.Ordinal)
                                     || e.Message.Contains("SendAsync/RecvAsync", StringComparison.Ordinal),
        _ => false,
    };

    private static string FirstWords(string message) => string.Join(' ', message.ReplaceLineEndings(" ").Split(' ').Skip(2).Take(7));

    /// <summary>
    /// The descriptors libzmq opens (its mailboxes' eventfds, its pollers' epoll instances, sockets); the runtime's own
    /// (assemblies it maps as it loads them, its pipes) are left out.
    /// </summary>
    private static int OpenDescriptors() => Directory.GetFileSystemEntries("/proc/self/fd")
        .Select(fd => new FileInfo(fd).LinkTarget ?? "")
        .Count(target => target.StartsWith("anon_inode:", StringComparison.Ordinal) || target.StartsWith("socket:", StringComparison.Ordinal));
}
