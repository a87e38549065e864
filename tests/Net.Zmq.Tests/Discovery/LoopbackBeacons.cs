using System.Net;
using Net.Zmq.Discovery;

namespace Net.Zmq.Tests.Discovery;

/// <summary>
/// Beacons that broadcast on loopback only (127.255.255.255, which Linux delivers to every socket bound to the port on
/// this host), on a port the first one picks: the tests exchange real datagrams without reaching the LAN.
/// </summary>
internal static class LoopbackBeacons
{
    public static readonly IPAddress Broadcast = IPAddress.Parse("127.255.255.255");

    /// <summary>A short publish interval, so tests see many beacons quickly.</summary>
    public static readonly TimeSpan Fast = TimeSpan.FromMilliseconds(30);

    /// <summary>The first beacon of a test, on a free port.</summary>
    public static Beacon First() => new(0, Broadcast);

    /// <summary>Another beacon on the same port as <paramref name="first"/>.</summary>
    public static Beacon Beside(Beacon first) => new(first.Port, Broadcast);

    /// <summary>Receives until a beacon with <paramref name="payload"/> arrives; fails after <see cref="Support.Timeouts.Wait"/>.</summary>
    public static BeaconMessage AwaitPayload(Beacon beacon, string payload)
    {
        DateTime deadline = DateTime.UtcNow + Support.Timeouts.Wait;
        while (DateTime.UtcNow < deadline)
        {
            if (beacon.TryRecv(deadline - DateTime.UtcNow, out BeaconMessage? message) && message.PayloadText == payload)
            {
                return message;
            }
        }

        Assert.Fail($"no beacon '{payload}' arrived within {Support.Timeouts.Wait.TotalSeconds} s");
        return null;
    }
}
