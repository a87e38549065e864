using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using Net.Zmq.Monitoring;
using Net.Zmq.Soak.Scenarios;

namespace Net.Zmq.Soak.Peers;

/// <summary>
/// The far side of the fault tests, run as a child process (possibly inside a network namespace) so that it can be
/// killed, stopped or cut off from the test process.
/// </summary>
public static class PeerProcess
{
    /// <summary>Size of a frame sent by <c>peer push</c>: a numbered frame followed by the send time.</summary>
    public const int StampedFrameSize = 24;

    /// <summary>
    /// <c>peer push ENDPOINT HEARTBEAT_MS COUNT</c>: connects a PUSH socket and sends COUNT numbered frames (0 = until
    /// killed), each stamped with <see cref="Stopwatch.GetTimestamp"/> (a monotonic clock shared by every process of
    /// the machine). <c>peer dealer ENDPOINT HEARTBEAT_MS TTL_MS</c>: connects a DEALER, sends "hello" and waits to be
    /// killed. <c>peer router ENDPOINT HANDSHAKE_MS SECONDS</c>: see <see cref="Router"/>.
    /// </summary>
    public static int Run(string[] args)
    {
        if (args.Length != 4)
        {
            Console.Error.WriteLine("usage: peer push ENDPOINT HEARTBEAT_MS COUNT | peer dealer ENDPOINT HEARTBEAT_MS TTL_MS | peer router ENDPOINT HANDSHAKE_MS SECONDS");
            return 2;
        }

        string endpoint = args[1];
        int heartbeatMs = int.Parse(args[2], CultureInfo.InvariantCulture);
        long last = long.Parse(args[3], CultureInfo.InvariantCulture);
        using var context = new Context { DefaultLinger = TimeSpan.FromSeconds(30) };
        switch (args[0])
        {
            case "push":
                Push(context, endpoint, heartbeatMs, last);
                return 0;
            case "dealer":
                Dealer(context, endpoint, heartbeatMs, (int)last);
                return 0;
            case "router":
                Router(context, endpoint, heartbeatMs, (int)last);
                return 0;
            default:
                Console.Error.WriteLine($"unknown peer role '{args[0]}'");
                return 2;
        }
    }

    private static void Push(Context context, string endpoint, int heartbeatMs, long count)
    {
        using var push = new Socket(context, SocketType.Push);
        Configure(push, heartbeatMs);
        push.Connect(endpoint);
        Span<byte> frame = stackalloc byte[StampedFrameSize];
        for (long i = 0; count == 0 || i < count; i++)
        {
            StreamScenarios.Write(frame, i);
            BinaryPrimitives.WriteInt64LittleEndian(frame[16..], Stopwatch.GetTimestamp());
            push.Send(frame);
        }
    }

    private static void Dealer(Context context, string endpoint, int heartbeatMs, int ttlMs)
    {
        using var dealer = new Socket(context, SocketType.Dealer);
        Configure(dealer, heartbeatMs);
        if (ttlMs > 0)
        {
            dealer.SetOption(SocketOption.HeartbeatTtl, ttlMs);
        }

        dealer.Connect(endpoint);
        dealer.Send("hello");
        dealer.Recv();
    }

    /// <summary>
    /// Binds a ROUTER (with <paramref name="handshakeMs"/> as its HandshakeInterval) and monitors it for
    /// <paramref name="seconds"/> seconds, while doing what a .NET server does besides (opening a file, starting a
    /// thread). Writes to stdout: <c>endpoint E</c>, then <c>accept-failed ERRNO</c> at the first AcceptFailed,
    /// <c>error ...</c> for any exception of the side work, and at the end <c>alive accepted=N accept-failed=M
    /// closed=C fds=F</c>. Run under a low <c>ulimit -n</c> by the descriptor exhaustion test.
    /// </summary>
    private static void Router(Context context, string endpoint, int handshakeMs, int seconds)
    {
        using var router = new Socket(context, SocketType.Router);
        router.SetOption(SocketOption.HandshakeInterval, handshakeMs);
        using var monitor = new SocketMonitor(router, SocketEvents.Accepted | SocketEvents.AcceptFailed | SocketEvents.Closed | SocketEvents.Disconnected);
        router.Bind(endpoint);
        Console.WriteLine($"endpoint {router.LastEndpoint}");
        long accepted = 0, acceptFailed = 0, closed = 0;
        var clock = Stopwatch.StartNew();
        var sideWork = Stopwatch.StartNew();
        while (clock.Elapsed < TimeSpan.FromSeconds(seconds))
        {
            while (monitor.TryRecv(out SocketMonitorEvent e, TimeSpan.FromMilliseconds(10)))
            {
                switch (e.Event)
                {
                    case SocketEvents.Accepted:
                        accepted++;
                        break;
                    case SocketEvents.AcceptFailed:
                        if (acceptFailed++ == 0)
                        {
                            Console.WriteLine($"accept-failed {e.Value}");
                        }

                        break;
                    default:
                        closed++;
                        break;
                }

                if (clock.Elapsed >= TimeSpan.FromSeconds(seconds))
                {
                    break;
                }
            }

            if (sideWork.ElapsedMilliseconds >= 100)
            {
                sideWork.Restart();
                try
                {
                    _ = File.ReadAllText("/proc/self/stat");
                    var thread = new Thread(() => { });
                    thread.Start();
                    thread.Join();
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or OutOfMemoryException or ThreadStartException)
                {
                    Console.WriteLine($"error {ex.GetType().Name}: {ex.Message}");
                }
            }
        }

        string fds;
        try
        {
            fds = ProcessStats.OpenFileDescriptors().ToString(CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            fds = "(cannot open /proc/self/fd: out of descriptors)";
        }

        Console.WriteLine($"alive accepted={accepted} accept-failed={acceptFailed} closed={closed} fds={fds}");
    }

    private static void Configure(Socket socket, int heartbeatMs)
    {
        socket.SetOption(SocketOption.ReconnectInterval, 100);
        socket.SetOption(SocketOption.ReconnectIntervalMax, 500);
        if (heartbeatMs > 0)
        {
            socket.SetOption(SocketOption.HeartbeatInterval, heartbeatMs);
            socket.SetOption(SocketOption.HeartbeatTimeout, heartbeatMs * 5);
        }
    }
}
