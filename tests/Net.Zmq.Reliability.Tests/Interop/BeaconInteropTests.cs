using System.Net.Sockets;
using System.Text;
using NetMQ;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Reliability.Tests.Interop;

/// <summary>
/// A Net.Zmq <see cref="Beacon"/> and NetMQ's NetMQBeacon on one UDP port hear each other: the datagram is the raw
/// payload in both. Both broadcast to 255.255.255.255 (NetMQ's ConfigureAllInterfaces); skipped where this host has no
/// route for it.
/// </summary>
public sealed class BeaconInteropTests
{
    [SkippableFact]
    public void A_Net_Zmq_beacon_and_a_NetMQ_beacon_hear_each_other()
    {
        using var ours = new Beacon(0);
        ours.Subscribe("netmq");
        try
        {
            ours.Publish("net.zmq here", TimeSpan.FromMilliseconds(50));
        }
        catch (SocketException ex)
        {
            Skip.If(true, $"no route for the limited broadcast here: {ex.SocketErrorCode}");
        }

        using var theirs = new NetMQBeacon();
        theirs.ConfigureAllInterfaces(ours.Port);
        theirs.Subscribe("net.zmq");
        theirs.Publish("netmq here", TimeSpan.FromMilliseconds(50), Encoding.UTF8);

        Assert.True(ours.TryRecv(Timeouts.Wait, out Net.Zmq.Discovery.BeaconMessage? fromNetMq), "nothing came from NetMQ's beacon");
        Assert.Equal("netmq here", fromNetMq.PayloadText);
        Assert.True(theirs.TryReceive(Timeouts.Wait, out NetMQ.BeaconMessage fromOurs), "NetMQ's beacon heard nothing");
        Assert.Equal("net.zmq here", fromOurs.String);
    }
}
