using System.Diagnostics;
using Net.Zmq.Monitoring;
using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Soak.Peers;
using Net.Zmq.Soak.Scenarios;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Reliability.Tests.Faults;

/// <summary>Peers in child processes that die (SIGKILL) or freeze (SIGSTOP) mid-conversation.</summary>
public class PeerProcessFaultTests(ITestOutputHelper output)
{
    private const int GoodFrameSize = 16;
    private static readonly TimeSpan s_long = TimeSpan.FromSeconds(30);

    [Fact]
    public void A_PULL_socket_sees_a_SIGKILLed_pusher_disconnect_and_keeps_serving_its_other_peer()
    {
        using var context = Sockets.NewContext();
        using var pull = Sockets.New(context, SocketType.Pull);
        string endpoint = Endpoints.BindTcp(pull);
        using var monitor = new SocketMonitor(pull, SocketEvents.Accepted | SocketEvents.Disconnected);
        using var good = Sockets.New(context, SocketType.Push);
        good.Connect(endpoint);
        using var doomed = PeerChild.Start(null, "push", endpoint, "0", "0");

        var fromChild = new SequenceCheck();
        var fromGood = new SequenceCheck();
        long goodSent = 0;
        var frame = new byte[PeerProcess.StampedFrameSize];
        var goodFrame = new byte[GoodFrameSize];

        // The good peer keeps at most 100 frames in flight, so its sends never wait on a full queue.
        void Pump(Func<bool> done)
        {
            while (!done())
            {
                if (goodSent - fromGood.Received < 100)
                {
                    StreamScenarios.Write(goodFrame, goodSent++);
                    Assert.True(good.Send(goodFrame));
                }

                int size = pull.Recv(frame);
                Assert.True(StreamScenarios.TryRead(frame, out long sequence), $"a corrupt {size}-byte frame");
                (size == PeerProcess.StampedFrameSize ? fromChild : fromGood).Observe(sequence);
            }
        }

        Pump(() => fromChild.Received >= 10_000);
        doomed.Kill();
        var killed = Stopwatch.StartNew();

        // libzmq reads a connection's end only after the frames queued before it, so keep receiving meanwhile.
        bool disconnected = false;
        Pump(() =>
        {
            Assert.True(killed.Elapsed < s_long, "no Disconnected event after the SIGKILL");
            while (!disconnected && monitor.TryRecv(out SocketMonitorEvent monitorEvent, TimeSpan.Zero))
            {
                disconnected = monitorEvent.Event == SocketEvents.Disconnected;
            }

            return disconnected;
        });
        TimeSpan seen = killed.Elapsed;
        long goodTarget = fromGood.Received + 10_000;
        Pump(() => fromGood.Received >= goodTarget);

        output.WriteLine($"SIGKILL -> Disconnected in {seen.TotalMilliseconds:F0} ms (while draining the frames queued before it); from the killed peer: {fromChild}; from the good peer: {fromGood}");
        Assert.True(fromChild.IsExact, $"killed peer: {fromChild}");
        Assert.True(fromGood.IsExact, $"good peer: {fromGood}");
    }

    [Fact]
    public void HeartbeatTimeout_detects_a_frozen_peer_within_the_configured_time()
    {
        const int IntervalMs = 100, TimeoutMs = 1000;
        using var context = Sockets.NewContext();
        using var router = Sockets.New(context, SocketType.Router);
        router.SetOption(SocketOption.HeartbeatInterval, IntervalMs);
        router.SetOption(SocketOption.HeartbeatTimeout, TimeoutMs);

        TimeSpan detected = FreezePeerAndTimeDisconnect(router, peerHeartbeatMs: 0, peerTtlMs: 0);

        output.WriteLine($"HeartbeatInterval {IntervalMs} ms, HeartbeatTimeout {TimeoutMs} ms: SIGSTOP -> Disconnected in {detected.TotalMilliseconds:F0} ms");
        Assert.InRange(detected, TimeSpan.FromMilliseconds(TimeoutMs - IntervalMs - 50), TimeSpan.FromMilliseconds(TimeoutMs + 2000));
    }

    [Fact]
    public void HeartbeatTtl_set_by_the_peer_makes_this_side_drop_the_peer_when_it_freezes()
    {
        const int PeerIntervalMs = 100, TtlMs = 1000;
        using var context = Sockets.NewContext();
        using var router = Sockets.New(context, SocketType.Router);

        // This side sets no heartbeat option: only the TTL that the peer announces in its PINGs can drop it.
        TimeSpan detected = FreezePeerAndTimeDisconnect(router, PeerIntervalMs, TtlMs);

        output.WriteLine($"peer HeartbeatInterval {PeerIntervalMs} ms, HeartbeatTtl {TtlMs} ms: SIGSTOP -> Disconnected in {detected.TotalMilliseconds:F0} ms");
        Assert.InRange(detected, TimeSpan.FromMilliseconds(TtlMs - PeerIntervalMs - 50), TimeSpan.FromMilliseconds(TtlMs + 2000));
    }

    /// <summary>Connects a child DEALER, waits for its hello, freezes it and times the ROUTER's Disconnected event.</summary>
    private static TimeSpan FreezePeerAndTimeDisconnect(Socket router, int peerHeartbeatMs, int peerTtlMs)
    {
        string endpoint = Endpoints.BindTcp(router);
        using var monitor = new SocketMonitor(router, SocketEvents.Disconnected);
        using var peer = PeerChild.Start(null, "dealer", endpoint, $"{peerHeartbeatMs}", $"{peerTtlMs}");
        router.SetOption(SocketOption.ReceiveTimeout, (int)s_long.TotalMilliseconds);
        Assert.Equal("hello", Frames.RecvStrings(router)[^1]);

        // Let a few heartbeats pass while the peer is alive: none may end the connection.
        Assert.False(monitor.TryRecv(out _, TimeSpan.FromMilliseconds(1500)), "the live peer was disconnected");
        peer.Stop();
        var stopped = Stopwatch.StartNew();
        monitor.WaitFor(SocketEvents.Disconnected, s_long);
        return stopped.Elapsed;
    }
}
