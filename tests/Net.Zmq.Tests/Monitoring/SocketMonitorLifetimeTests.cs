using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using Net.Zmq.Monitoring;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Monitoring;

/// <summary>
/// libzmq sends each monitor event with a blocking send, from the thread that raises it (the application's, its I/O
/// thread, its reaper), and still after the monitored socket's <c>zmq_close</c>: an event that finds the monitor's
/// event socket closed, or its pipe full, stops that thread until the context ends, and with the I/O thread every tcp
/// socket of the context. However a <see cref="SocketMonitor"/> ends (disposed after its socket, disposed while another
/// thread is inside a call on its socket, never disposed) and however many events nobody reads, two new sockets of the
/// same context still exchange a message over tcp. Each case runs in a child process: a regression leaves libzmq's
/// threads stuck, which the child's end cleans up.
/// </summary>
public sealed class SocketMonitorLifetimeTests
{
    private static readonly TimeSpan s_child = Timeouts.Wait * 6;

    [Fact]
    public void A_monitor_disposed_after_its_lingering_socket_leaves_libzmq_carrying_messages() =>
        IsolatedProcess.Run(DisposeTheSocketThenItsMonitor, s_child).AssertSucceeded();

    [Fact]
    public void A_monitor_disposed_while_another_thread_receives_on_its_socket_stops_when_that_receive_ends() =>
        IsolatedProcess.Run(DisposeTheMonitorDuringAReceive, s_child).AssertSucceeded();

    [Fact]
    public void A_monitor_never_disposed_keeps_its_event_socket_through_a_collection_while_its_socket_lives() =>
        IsolatedProcess.Run(DropTheMonitorAndCollect, s_child).AssertSucceeded();

    [Fact]
    public void Thousands_of_events_nobody_reads_stop_neither_the_socket_nor_libzmq() =>
        IsolatedProcess.Run(RaiseThousandsOfUnreadEvents, s_child).AssertSucceeded();

    private static void DisposeTheSocketThenItsMonitor()
    {
        using Context context = Sockets.NewContext();
        using var hangsUp = new TcpListener(IPAddress.Loopback, 0); // takes each connection and closes it unanswered
        hangsUp.Start();
        var dealer = Sockets.New(context, SocketType.Dealer);
        dealer.SetOption(SocketOption.ReconnectInterval, 10);
        dealer.SetOption(SocketOption.Linger, 2000);
        var monitor = new SocketMonitor(dealer);
        dealer.Connect($"tcp://127.0.0.1:{((IPEndPoint)hangsUp.LocalEndpoint).Port}");
        dealer.Send("queued"); // never handed over: the dealer keeps reconnecting
        AcceptAndHangUp(hangsUp);
        monitor.WaitFor(SocketEvents.ConnectRetried, Timeouts.Wait);

        // The wrong order. After zmq_close the dealer lingers with its message and goes on reconnecting.
        dealer.Dispose();
        monitor.Dispose();

        // libzmq's I/O thread raises each attempt's events (Disconnected, ConnectRetried, ...) before the next attempt:
        // the second connection accepted here was made after an attempt that ended after both disposals.
        AcceptAndHangUp(hangsUp);
        AcceptAndHangUp(hangsUp);
        AssertTcpStillCarries(context);
    }

    private static void DisposeTheMonitorDuringAReceive()
    {
        using Context context = Sockets.NewContext();
        using Socket router = Sockets.New(context, SocketType.Router);
        var monitor = new SocketMonitor(router);
        router.Bind("tcp://127.0.0.1:*");
        using Socket first = Sockets.New(context, SocketType.Dealer);
        first.Connect(router.LastEndpoint);
        monitor.WaitFor(SocketEvents.HandshakeSucceeded, Timeouts.Wait);

        using var received = new MultipartMessage();
        Task<bool> receive = BlockedThreads.Supported
            ? BlockedThreads.RunUntilBlocked(() => router.TryRecvMultipart(received, Timeouts.Wait), out _)
            : Waits.StartBlocked(() => router.TryRecvMultipart(received, Timeouts.Wait));

        monitor.Dispose(); // the receive holds the socket: the monitoring stops when it ends
        first.Send("ends the receive");
        Assert.True(receive.Wait(Timeouts.Wait), "the receive did not end");
        Assert.True(receive.Result, "the receive timed out");
        Assert.Equal("ends the receive", received[^1].ToString());

        // A new connection raises events on libzmq's I/O thread: Accepted, HandshakeSucceeded.
        using Socket second = Sockets.New(context, SocketType.Dealer);
        second.Connect(router.LastEndpoint);
        second.Send("after the monitor");
        Assert.True(router.TryRecvMultipart(received, Timeouts.Wait), "the monitored socket received nothing after its monitor was disposed");
        Assert.Equal("after the monitor", received[^1].ToString());
        AssertTcpStillCarries(context);
    }

    private static void DropTheMonitorAndCollect()
    {
        using Context context = Sockets.NewContext();
        using Socket router = Sockets.New(context, SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        WeakReference monitor = StartMonitorAndDropIt(router);
        for (int i = 0; i < 2; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        Assert.False(monitor.IsAlive, "the dropped monitor was not collected");

        // Accepted, HandshakeSucceeded, ... go to the dropped monitor's event socket, from libzmq's I/O thread.
        using Socket dealer = Sockets.New(context, SocketType.Dealer);
        dealer.Connect(router.LastEndpoint);
        dealer.Send("after the collection");
        using var received = new MultipartMessage();
        Assert.True(router.TryRecvMultipart(received, Timeouts.Wait), "the monitored socket received nothing after its monitor was collected");
        Assert.Equal("after the collection", received[^1].ToString());
        AssertTcpStillCarries(context);
    }

    private static void RaiseThousandsOfUnreadEvents()
    {
        const int Cycles = 1500; // Listening and Closed each: 3000 events, beyond libzmq's default pipe of 1000 + 1000
        using Context context = Sockets.NewContext();
        using Socket pull = Sockets.New(context, SocketType.Pull);
        using var monitor = new SocketMonitor(pull, SocketEvents.Listening | SocketEvents.Closed);

        var cycles = BackgroundWork.Start("bind and unbind", () =>
        {
            for (int i = 0; i < Cycles; i++)
            {
                pull.Bind("tcp://127.0.0.1:*");
                pull.Unbind(pull.LastEndpoint);
            }
        });
        cycles.Join(Timeouts.Wait * 3);
        AssertTcpStillCarries(context);

        // Every Listening (sent by the binding thread) arrives, and more than the 2000 events libzmq's default pipe
        // holds. Closed is not counted: now and then libzmq 4.3.4 reports no Closed for a listener unbound at once (a
        // PAIR of one's own, read the same way, misses it too).
        int listening = 0, events = 0;
        while (listening < Cycles || events <= 2000)
        {
            events++;
            listening += monitor.Recv(Timeouts.Wait).Event == SocketEvents.Listening ? 1 : 0;
        }
    }

    private static void AcceptAndHangUp(TcpListener listener)
    {
        Task<TcpClient> accept = listener.AcceptTcpClientAsync();
        Assert.True(accept.Wait(Timeouts.Wait), "libzmq's I/O thread made no new connection");
        accept.Result.Dispose();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference StartMonitorAndDropIt(Socket socket) => new(new SocketMonitor(socket));

    /// <summary>Two new sockets of <paramref name="context"/> exchange a message over tcp: libzmq's I/O thread runs.</summary>
    private static void AssertTcpStillCarries(Context context)
    {
        using Socket bound = Sockets.New(context, SocketType.Pair);
        using Socket connected = Sockets.New(context, SocketType.Pair);
        bound.Bind("tcp://127.0.0.1:*");
        connected.Connect(bound.LastEndpoint);
        connected.Send("still carried");
        Assert.True(bound.TryRecvString(Timeouts.Wait, out string? text), "two new sockets of the context exchanged no message over tcp");
        Assert.Equal("still carried", text);
    }
}
