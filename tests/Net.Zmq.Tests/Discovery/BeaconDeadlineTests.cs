using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Discovery;

/// <summary>TryRecv(timeout) returns near its deadline even while datagrams its filter drops keep arriving.</summary>
public sealed class BeaconDeadlineTests
{
    [Fact]
    public void TryRecv_keeps_its_deadline_under_a_flood_of_datagrams_the_filter_drops()
    {
        using Beacon beacon = LoopbackBeacons.First();
        beacon.Subscribe("wanted:");
        using var flooder = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        var target = new IPEndPoint(IPAddress.Loopback, beacon.Port);
        byte[] unwanted = "other:payload"u8.ToArray();
        using var stop = new CancellationTokenSource(Timeouts.Wait); // the flood is bounded in time whatever happens
        long sent = 0;
        var flood = BackgroundWork.Start("flood", () =>
        {
            while (!stop.IsCancellationRequested)
            {
                flooder.SendTo(unwanted, target);
                Interlocked.Increment(ref sent);
            }
        });
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
        flood.Join(Timeouts.Wait);

        Assert.False(received, $"received {message?.PayloadText}");
        Assert.True(sentDuring > 100, $"only {sentDuring} datagrams were sent during the receive: no flood to test against");
        Assert.True(clock.ElapsedMilliseconds >= 99, $"TryRecv returned after {clock.ElapsedMilliseconds} ms, before its timeout");
        Assert.True(clock.ElapsedMilliseconds < 250, $"TryRecv(100 ms) took {clock.ElapsedMilliseconds} ms under a flood of {sentDuring} datagrams");
    }
}
