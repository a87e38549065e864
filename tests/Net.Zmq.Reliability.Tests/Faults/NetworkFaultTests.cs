using System.Diagnostics;
using System.Net;
using Net.Zmq.Monitoring;
using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Reliability.Tests.Faults;

/// <summary>
/// A PUSH peer in its own network namespace streams numbered frames to a PULL socket in the test process across a
/// veth link, while the link fails. Skipped, with the reason, where namespaces cannot be made (they need root).
/// </summary>
public class NetworkFaultTests(ITestOutputHelper output)
{
    private const int HeartbeatMs = 200;
    private const int HeartbeatTimeoutMs = HeartbeatMs * 5;
    private static readonly TimeSpan s_long = TimeSpan.FromSeconds(30);

    [SkippableFact]
    public void A_stream_across_hosts_survives_the_link_going_down_and_up_reconnecting_in_order_without_duplicates()
    {
        Skip.If(NetworkNamespace.Unavailable is not null, NetworkNamespace.Unavailable);
        using var host = NetworkNamespace.Create();
        using var context = Sockets.NewContext();
        using var pull = new Socket(context, SocketType.Pull);
        pull.SetOption(SocketOption.HeartbeatInterval, HeartbeatMs);
        pull.SetOption(SocketOption.HeartbeatTimeout, HeartbeatTimeoutMs);
        pull.Bind($"tcp://{host.HostAddress}:*");
        using var monitor = new SocketMonitor(pull, SocketEvents.Accepted | SocketEvents.Disconnected);
        using var peer = PeerChild.Start(host.Name, "push", pull.LastEndpoint, $"{HeartbeatMs}", "0");
        using var stream = new StampedStreamReceiver(pull);

        monitor.WaitFor(SocketEvents.Accepted, s_long);
        Assert.True(stream.WaitForMore(5_000, s_long), "the stream did not start");

        // Only events after the link goes down count from here on.
        while (monitor.TryRecv(out _, TimeSpan.Zero))
        {
        }

        host.SetLink(up: false);
        var down = Stopwatch.StartNew();
        monitor.WaitFor(SocketEvents.Disconnected, s_long);
        TimeSpan detected = down.Elapsed;
        var before = stream.Snapshot();

        host.SetLink(up: true);
        var up = Stopwatch.StartNew();
        monitor.WaitFor(SocketEvents.Accepted, s_long);
        TimeSpan reconnected = up.Elapsed;
        Assert.True(stream.WaitForMore(5_000, s_long), "the stream did not resume after the link came back");
        var after = stream.Snapshot();

        output.WriteLine($"link down: heartbeat ({HeartbeatMs} ms interval, {HeartbeatTimeoutMs} ms timeout) reported Disconnected after {detected.TotalMilliseconds:F0} ms; " +
                         $"link up: reconnected after {reconnected.TotalMilliseconds:F0} ms; " +
                         $"{after.Received:N0} frames received, last #{after.Last:N0}, {after.Missing:N0} lost with the dropped connection, " +
                         $"{after.Backwards} duplicated or out of order, {after.Corrupt} corrupt");
        Assert.Equal(0, after.Backwards);
        Assert.Equal(0, after.Corrupt);
        Assert.True(after.Last > before.Last + 1000, "no new frames after the reconnection");
        Assert.True(detected < TimeSpan.FromMilliseconds(HeartbeatTimeoutMs) + TimeSpan.FromSeconds(2),
            $"the dead link was detected after {detected.TotalMilliseconds:F0} ms, configured heartbeat timeout {HeartbeatTimeoutMs} ms");
    }

    [SkippableFact]
    public void A_stream_across_hosts_with_5_percent_packet_loss_and_50_ms_delay_arrives_whole_and_in_order()
    {
        Skip.If(NetworkNamespace.LossUnavailable is not null, NetworkNamespace.LossUnavailable);
        const int Frames = 50_000;
        var delay = TimeSpan.FromMilliseconds(50);
        using var host = NetworkNamespace.Create();
        host.AddRandomLoss(percent: 5);
        using var context = Sockets.NewContext();
        using var pull = new Socket(context, SocketType.Pull);
        string target = Endpoints.BindTcp(pull);
        using var relay = new DelayRelay(IPAddress.Parse(host.HostAddress), ParseTcp(target), delay);
        using var peer = PeerChild.Start(host.Name, "push", relay.Endpoint, "0", $"{Frames}");
        using var stream = new StampedStreamReceiver(pull);

        var clock = Stopwatch.StartNew();
        bool complete = stream.WaitForMore(Frames, TimeSpan.FromSeconds(120));
        var figures = stream.Snapshot();
        long dropped = host.DroppedPackets();
        output.WriteLine($"{figures.Received:N0} of {Frames:N0} frames in {clock.Elapsed.TotalSeconds:F1} s; {dropped} packets dropped by the 5% rule; " +
                         $"latency {stream.MinLatency.TotalMilliseconds:F1}..{stream.MaxLatency.TotalMilliseconds:F1} ms with {delay.TotalMilliseconds} ms relay delay; " +
                         $"{figures.Missing} missing, {figures.Backwards} duplicated or out of order, {figures.Corrupt} corrupt; {relay.Connections} connection(s)");
        Assert.True(complete, $"only {figures.Received} of {Frames} frames arrived");
        Assert.True(dropped > 0, "the loss rule dropped no packet, so the test proved nothing");
        Assert.True(stream.MinLatency >= delay, $"a frame arrived in {stream.MinLatency.TotalMilliseconds} ms, under the relay's delay");
        Assert.Equal((0L, 0L, 0L), (figures.Missing, figures.Backwards, figures.Corrupt));
    }

    private static IPEndPoint ParseTcp(string endpoint) => IPEndPoint.Parse(endpoint["tcp://".Length..]);
}
