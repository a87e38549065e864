using System.Text.RegularExpressions;
using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Reliability.Tests.Gate;

/// <summary>
/// Every door into a socket's gate raced at once, round after round for a bounded time, in a child process
/// (<c>Net.Zmq.Soak.dll gate-stress</c>): two threads' synchronous calls, <c>Dispose</c>, the first <c>RecvAsync</c>,
/// <c>Poller.Add</c> with polling, and <c>EventLoop.Add</c>/<c>Remove</c>. The child must end by itself (a native
/// crash or a hang fails here), every refused call must be one of the gate's clear exceptions, and libzmq's
/// descriptors must all be closed again at the end. In a Debug build the gate's asserts run too.
/// </summary>
public sealed partial class GateStressTests(ITestOutputHelper output)
{
    private const int Seconds = 4;

    [SkippableFact]
    public void Racing_every_door_into_one_socket_never_crashes_hangs_or_leaks()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the stress counts descriptors in /proc/self/fd");

        using PeerChild child = PeerChild.StartVerb("gate-stress", Seconds.ToString(System.Globalization.CultureInfo.InvariantCulture));
        int? exitCode = child.WaitForExit(TimeSpan.FromSeconds(Seconds) + Timeouts.Wait * 4);
        var lines = new List<string>();
        while (child.ReadLine(TimeSpan.Zero) is { } line)
        {
            lines.Add(line);
            output.WriteLine(line);
        }

        Assert.True(exitCode is not null, "the stress hung (killed after its time)");
        Assert.True(exitCode == 0, $"the stress exited {exitCode} (1: an unclear exception or a leak, 2: a round hung, other: a crash)");
        Assert.Contains(lines, line => line.StartsWith("refused ", StringComparison.Ordinal) && line.Contains("InvalidOperationException", StringComparison.Ordinal));
        Match descriptors = Assert.Single(lines.Select(line => DescriptorLine().Match(line)), match => match.Success);
        Assert.Equal(descriptors.Groups[1].Value, descriptors.Groups[2].Value);
    }

    [GeneratedRegex(@"^descriptors before (\d+) after (\d+)$")]
    private static partial Regex DescriptorLine();
}
