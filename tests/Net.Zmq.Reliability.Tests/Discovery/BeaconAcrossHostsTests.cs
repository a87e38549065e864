using System.Net;
using System.Runtime.InteropServices;
using Net.Zmq.Discovery;
using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Reliability.Tests.Discovery;

/// <summary>
/// Two beacons on two hosts: one in the test process's network namespace, one in a namespace of its own joined by a
/// veth link, each broadcasting to the link's broadcast address. Each must hear the other, from the other's address.
/// Skipped, with the reason, where namespaces cannot be made (they need root).
/// </summary>
public sealed partial class BeaconAcrossHostsTests
{
    private const int CloneNewNet = 0x40000000;

    [SkippableFact]
    public void Beacons_on_two_hosts_find_each_other_over_the_links_broadcast_address()
    {
        Skip.If(NetworkNamespace.Unavailable is not null, NetworkNamespace.Unavailable);
        using var link = NetworkNamespace.Create();
        IPAddress broadcast = IPAddress.Parse(link.BroadcastAddress);
        using var here = new Beacon(0, broadcast) { IgnoreOwnTransmissions = true };
        using Beacon there = InNamespace(link.Name, () => new Beacon(here.Port, broadcast) { IgnoreOwnTransmissions = true });
        here.Subscribe("host ");
        there.Subscribe("host ");

        here.Publish("host here", TimeSpan.FromMilliseconds(50));
        there.Publish("host there", TimeSpan.FromMilliseconds(50));

        Assert.True(here.TryRecv(Timeouts.Wait, out BeaconMessage? fromThere), "nothing came from the other host");
        Assert.True(there.TryRecv(Timeouts.Wait, out BeaconMessage? fromHere), "nothing reached the other host");
        Assert.Equal("host there", fromThere.PayloadText);
        Assert.Equal(IPAddress.Parse(link.PeerAddress), fromThere.PeerAddress);
        Assert.Equal("host here", fromHere.PayloadText);
        Assert.Equal(IPAddress.Parse(link.HostAddress), fromHere.PeerAddress);
    }

    /// <summary>Runs <paramref name="create"/> on a thread that joined the namespace: the sockets it opens live there.</summary>
    private static T InNamespace<T>(string name, Func<T> create)
    {
        T? result = default;
        Exception? failure = null;
        var thread = new Thread(() =>
        {
            try
            {
                using Microsoft.Win32.SafeHandles.SafeFileHandle handle = File.OpenHandle($"/run/netns/{name}");
                if (SetNamespace((int)handle.DangerousGetHandle(), CloneNewNet) != 0)
                {
                    throw new InvalidOperationException($"setns failed with errno {Marshal.GetLastPInvokeError()}");
                }

                result = create();
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        });
        thread.Start();
        Assert.True(thread.Join(Timeouts.Wait), "the thread joining the namespace did not finish");
        if (failure is not null)
        {
            throw new InvalidOperationException("Could not create the beacon in the other namespace.", failure);
        }

        return result!;
    }

    [LibraryImport("libc", EntryPoint = "setns", SetLastError = true)]
    private static partial int SetNamespace(int fd, int namespaceType);
}
