using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Discovery;

/// <summary>TryRecv(timeout) returns near its deadline even while datagrams its filter drops keep arriving.</summary>
public sealed class BeaconDeadlineTests(ITestOutputHelper output)
{
    [Fact]
    public void TryRecv_keeps_its_deadline_under_a_flood_of_datagrams_the_filter_drops()
    {
        using Beacon beacon = LoopbackBeacons.First();
        beacon.Subscribe("wanted:");
        var target = new IPEndPoint(IPAddress.Loopback, beacon.Port);
        byte[] unwanted = "other:payload"u8.ToArray();
        using var stop = new CancellationTokenSource(Timeouts.Wait); // the flood is bounded in time whatever happens
        long sent = 0;

        // Four senders, so that datagrams arrive faster than a receive can drop them and the socket stays readable.
        BackgroundWork[] flood = Enumerable.Range(0, 4).Select(i => BackgroundWork.Start($"flood {i}", () =>
        {
            using var flooder = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
            while (!stop.IsCancellationRequested)
            {
                flooder.SendTo(unwanted, target);
                Interlocked.Increment(ref sent);
            }
        })).ToArray();
        DateTime floodDeadline = DateTime.UtcNow + Timeouts.Wait;
        while (Interlocked.Read(ref sent) < 1000 && DateTime.UtcNow < floodDeadline)
        {
            Thread.Yield(); // until the flood is under way
        }

        long sentBefore = Interlocked.Read(ref sent);
        var clock = Stopwatch.StartNew();
        bool received = beacon.TryRecv(TimeSpan.FromMilliseconds(100), out BeaconMessage? message);
        clock.Stop();
        long sentDuring = Interlocked.Read(ref sent) - sentBefore;
        stop.Cancel();
        foreach (BackgroundWork sender in flood)
        {
            sender.Join(Timeouts.Wait);
        }

        output.WriteLine($"TryRecv(100 ms) returned after {clock.ElapsedMilliseconds} ms; {sentDuring} datagrams were sent meanwhile");
        Assert.False(received, $"received {message?.PayloadText}");
        Assert.True(sentDuring > 100, $"only {sentDuring} datagrams were sent during the receive: no flood to test against");
        Assert.True(clock.ElapsedMilliseconds >= 99, $"TryRecv returned after {clock.ElapsedMilliseconds} ms, before its timeout");
        Assert.True(clock.ElapsedMilliseconds < 250, $"TryRecv(100 ms) took {clock.ElapsedMilliseconds} ms under a flood of {sentDuring} datagrams");
    }

    [Fact]
    public void TryRecv_with_a_zero_timeout_drops_at_most_one_datagram_and_returns()
    {
        using Beacon beacon = LoopbackBeacons.First();
        beacon.Subscribe("wanted:");
        using var sender = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        var target = new IPEndPoint(IPAddress.Loopback, beacon.Port);
        for (int i = 0; i < 20; i++)
        {
            sender.SendTo("other:payload"u8.ToArray(), target);
        }

        using var poller = new Poller();
        poller.Add(beacon.Handle, PollEvents.In);
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));

        Assert.False(beacon.TryRecv(TimeSpan.Zero, out _));

        // A zero timeout is a deadline too: the call did not stay to drain the datagrams queued behind the first.
        Assert.Equal(1, poller.Poll(0));
        int dropped = 1;
        while (poller.Poll(0) == 1 && dropped < 100)
        {
            Assert.False(beacon.TryRecv(TimeSpan.Zero, out _));
            dropped++;
        }

        Assert.True(dropped > 2, $"only {dropped} calls found datagrams waiting");
    }
}
