using System.Net;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Discovery;

/// <summary>Beacons on one port find each other; the filter and the echo setting decide what a receive returns.</summary>
public sealed class BeaconDiscoveryTests : ContextPerTest
{
    [Fact]
    public void Two_beacons_on_loopback_receive_each_others_payload()
    {
        using Beacon a = LoopbackBeacons.First();
        using Beacon b = LoopbackBeacons.Beside(a);
        a.IgnoreOwnTransmissions = true;
        b.IgnoreOwnTransmissions = true;
        a.Subscribe("");
        b.Subscribe("");

        a.Publish("node-a port=5670", LoopbackBeacons.Fast);
        b.Publish("node-b port=5671", LoopbackBeacons.Fast);

        Assert.True(a.TryRecv(Timeouts.Wait, out BeaconMessage? atA), "a heard nothing");
        Assert.True(b.TryRecv(Timeouts.Wait, out BeaconMessage? atB), "b heard nothing");
        Assert.Equal("node-b port=5671", atA.PayloadText);
        Assert.Equal("node-a port=5670", atB.PayloadText);
        Assert.True(IPAddress.IsLoopback(atA.PeerAddress), $"{atA.PeerAddress}");
        Assert.Equal(atA.PeerAddress, atA.Sender.Address);
        Assert.NotEqual(a.Port, atA.Sender.Port); // beacons go out from a port of their own
    }

    [Fact]
    public void The_filter_drops_beacons_with_other_prefixes()
    {
        using Beacon listener = LoopbackBeacons.First();
        using Beacon control = LoopbackBeacons.Beside(listener);
        using Beacon kept = LoopbackBeacons.Beside(listener);
        using Beacon dropped = LoopbackBeacons.Beside(listener);
        listener.Subscribe("keep:"u8);
        control.Subscribe("");

        kept.Publish("keep:1", LoopbackBeacons.Fast);
        dropped.Publish("drop:1", LoopbackBeacons.Fast);

        // Both reach the port: the control, which takes everything, sees them.
        LoopbackBeacons.AwaitPayload(control, "drop:1");
        LoopbackBeacons.AwaitPayload(control, "keep:1");
        for (int i = 0; i < 10; i++)
        {
            Assert.True(listener.TryRecv(Timeouts.Wait, out BeaconMessage? message), "the listener heard nothing");
            Assert.Equal("keep:1", message.PayloadText);
        }
    }

    [Fact]
    public void A_beacon_hears_its_own_transmissions_unless_told_to_ignore_them()
    {
        using Beacon echoing = LoopbackBeacons.First();
        using Beacon quiet = LoopbackBeacons.Beside(echoing);
        using Beacon other = LoopbackBeacons.Beside(echoing);
        echoing.Subscribe("");
        quiet.Subscribe("");
        other.Subscribe("");
        quiet.IgnoreOwnTransmissions = true;

        echoing.Publish("from-echoing", LoopbackBeacons.Fast);
        quiet.Publish("from-quiet", LoopbackBeacons.Fast);
        other.Publish("from-other", LoopbackBeacons.Fast);

        LoopbackBeacons.AwaitPayload(echoing, "from-echoing");
        LoopbackBeacons.AwaitPayload(other, "from-quiet"); // quiet's beacons are on the wire
        int fromOthers = 0;
        for (int i = 0; i < 20; i++)
        {
            Assert.True(quiet.TryRecv(Timeouts.Wait, out BeaconMessage? message), "quiet heard nothing");
            Assert.NotEqual("from-quiet", message.PayloadText);
            fromOthers++;
        }

        Assert.Equal(20, fromOthers);
    }

    [Fact]
    public void A_peer_publishing_the_same_payload_is_not_taken_for_an_echo()
    {
        using Beacon a = LoopbackBeacons.First();
        using Beacon b = LoopbackBeacons.Beside(a);
        using Beacon control = LoopbackBeacons.Beside(a);
        a.IgnoreOwnTransmissions = true;
        a.Subscribe("");
        control.Subscribe("");
        a.Publish("same", LoopbackBeacons.Fast);
        b.Publish("same", LoopbackBeacons.Fast);

        // The control sees two senders; a sees only b, whose endpoint is one of them and not a's.
        var senders = new HashSet<IPEndPoint>();
        while (senders.Count < 2)
        {
            Assert.True(control.TryRecv(Timeouts.Wait, out BeaconMessage? seen), "the control heard nothing");
            senders.Add(seen.Sender);
        }

        var heardByA = new HashSet<IPEndPoint>();
        for (int i = 0; i < 10; i++)
        {
            Assert.True(a.TryRecv(Timeouts.Wait, out BeaconMessage? message), "a heard nothing from b");
            Assert.Equal("same", message.PayloadText);
            heardByA.Add(message.Sender);
        }

        IPEndPoint fromB = Assert.Single(heardByA);
        Assert.Contains(fromB, senders);
    }

    [Fact]
    public async Task ReceiveAsync_returns_a_peer_beacon_and_honours_cancellation()
    {
        using Beacon a = LoopbackBeacons.First();
        using Beacon b = LoopbackBeacons.Beside(a);
        a.Subscribe("wanted");

        using (var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(100)))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await a.RecvAsync(cancel.Token));
        }

        b.Publish("wanted: me", LoopbackBeacons.Fast);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        BeaconMessage message = await a.RecvAsync(timeout.Token);

        Assert.Equal("wanted: me", message.PayloadText);
        Assert.Equal("wanted: me"u8.ToArray(), message.Payload.ToArray());
    }

    [Fact]
    public void Several_beacons_on_one_host_share_the_port()
    {
        using Beacon first = LoopbackBeacons.First();
        var others = new List<Beacon>();
        try
        {
            for (int i = 0; i < 3; i++)
            {
                Beacon beacon = LoopbackBeacons.Beside(first);
                others.Add(beacon);
                beacon.Subscribe("");
            }

            first.Publish("to all", LoopbackBeacons.Fast);
            foreach (Beacon beacon in others)
            {
                Assert.Equal(first.Port, beacon.Port);
                LoopbackBeacons.AwaitPayload(beacon, "to all");
            }
        }
        finally
        {
            others.ForEach(beacon => beacon.Dispose());
        }
    }

    [Fact]
    public void A_Poller_wakes_on_the_beacons_handle_beside_a_ZeroMQ_socket()
    {
        using Socket idle = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(idle);
        using Beacon listener = LoopbackBeacons.First();
        using Beacon peer = LoopbackBeacons.Beside(listener);
        listener.Subscribe("");
        using var poller = new Poller();
        int idleIndex = poller.Add(idle, PollEvents.In);
        int beaconIndex = poller.Add(listener.Handle, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));

        peer.Publish("wake up", LoopbackBeacons.Fast);

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(beaconIndex));
        Assert.False(poller.IsReadable(idleIndex));
        Assert.True(listener.TryRecv(TimeSpan.Zero, out BeaconMessage? message));
        Assert.Equal("wake up", message.PayloadText);
    }
}
