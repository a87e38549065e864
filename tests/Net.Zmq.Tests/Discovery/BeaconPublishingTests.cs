using System.Diagnostics;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Discovery;

/// <summary>Publish sends at its interval, Silence stops it, and the payload's size is checked.</summary>
public sealed class BeaconPublishingTests
{
    [Fact]
    public void Publish_sends_at_roughly_its_interval()
    {
        TimeSpan interval = TimeSpan.FromMilliseconds(100);
        const int Beacons = 6;
        using Beacon publisher = LoopbackBeacons.First();
        using Beacon listener = LoopbackBeacons.Beside(publisher);
        listener.Subscribe("tick");

        // The sixth beacon leaves five intervals after the first, however late the listener reads: a lower bound that
        // a busy machine cannot break.
        var clock = Stopwatch.StartNew();
        publisher.Publish("tick", interval);
        for (int i = 0; i < Beacons; i++)
        {
            Assert.True(listener.TryRecv(Timeouts.Wait, out _), $"beacon {i + 1} did not come");
        }

        TimeSpan elapsed = clock.Elapsed;
        TimeSpan expected = interval * (Beacons - 1);
        Assert.True(elapsed >= expected * 0.9, $"{Beacons} beacons took {elapsed.TotalMilliseconds:0} ms: faster than one per {interval.TotalMilliseconds} ms");
        Assert.True(elapsed <= expected * 6, $"{Beacons} beacons took {elapsed.TotalMilliseconds:0} ms: far slower than one per {interval.TotalMilliseconds} ms");
    }

    [Fact]
    public void Silence_stops_publishing_and_Publish_starts_again()
    {
        using Beacon publisher = LoopbackBeacons.First();
        using Beacon listener = LoopbackBeacons.Beside(publisher);
        listener.Subscribe("");
        publisher.Publish("beat", LoopbackBeacons.Fast);
        Assert.True(publisher.IsPublishing);
        Assert.True(listener.TryRecv(Timeouts.Wait, out _), "no beacon before Silence");

        publisher.Silence();

        Assert.False(publisher.IsPublishing);
        while (listener.TryRecv(TimeSpan.Zero, out _))
        {
            // Beacons sent before Silence that the listener has not read yet.
        }

        // At the 30 ms interval about 16 beacons would come in half a second; one may have been on its way.
        int late = 0;
        var window = Stopwatch.StartNew();
        TimeSpan span = TimeSpan.FromMilliseconds(500);
        while (window.Elapsed < span && listener.TryRecv(span - window.Elapsed, out _))
        {
            late++;
        }

        Assert.True(late <= 1, $"{late} beacons arrived after Silence");

        publisher.Publish("again", LoopbackBeacons.Fast);
        LoopbackBeacons.AwaitPayload(listener, "again");
    }

    [Fact]
    public void A_payload_of_MaxPayloadSize_bytes_arrives_whole()
    {
        using Beacon publisher = LoopbackBeacons.First();
        using Beacon listener = LoopbackBeacons.Beside(publisher);
        listener.Subscribe("");
        byte[] payload = new byte[Beacon.MaxPayloadSize];
        new Random(13).NextBytes(payload);

        publisher.Publish(payload, LoopbackBeacons.Fast);

        Assert.True(listener.TryRecv(Timeouts.Wait, out BeaconMessage? message));
        Assert.Equal(payload, message.Payload.ToArray());
    }

    [Fact]
    public void Payloads_that_are_empty_or_too_long_are_refused()
    {
        using Beacon beacon = LoopbackBeacons.First();

        var tooLong = Assert.Throws<ArgumentException>(() => beacon.Publish(new byte[Beacon.MaxPayloadSize + 1], LoopbackBeacons.Fast));
        Assert.Contains("255", tooLong.Message, StringComparison.Ordinal);
        Assert.Equal("payload", tooLong.ParamName);
        Assert.Throws<ArgumentException>(() => beacon.Publish(ReadOnlySpan<byte>.Empty, LoopbackBeacons.Fast));
        Assert.Throws<ArgumentException>(() => beacon.Publish("", LoopbackBeacons.Fast));
        Assert.Throws<ArgumentException>(() => beacon.Publish(new string('é', 128), LoopbackBeacons.Fast)); // 256 bytes in UTF-8
        Assert.Throws<ArgumentOutOfRangeException>(() => beacon.Publish("x", TimeSpan.Zero));
        Assert.False(beacon.IsPublishing);
    }

    [Fact]
    public void Receiving_needs_a_subscription()
    {
        using Beacon beacon = LoopbackBeacons.First();
        Assert.Throws<InvalidOperationException>(() => beacon.TryRecv(TimeSpan.Zero, out _));

        beacon.Subscribe("");
        Assert.False(beacon.TryRecv(TimeSpan.Zero, out _));

        beacon.Unsubscribe();
        Assert.Throws<InvalidOperationException>(() => beacon.TryRecv(TimeSpan.Zero, out _));
    }

    [Fact]
    public async Task Dispose_ends_a_blocked_receive_with_ObjectDisposedException()
    {
        Beacon beacon = LoopbackBeacons.First();
        beacon.Subscribe("");
        Task receive = Waits.StartBlocked(() => beacon.TryRecv(Timeout.InfiniteTimeSpan, out _));

        beacon.Dispose();

        Assert.True(await Waits.FinishesAsync(receive), "the receive should end when the beacon is disposed");
        await Assert.ThrowsAsync<ObjectDisposedException>(() => receive);
        Assert.Throws<ObjectDisposedException>(() => beacon.Publish("x", LoopbackBeacons.Fast));
        beacon.Dispose();
    }

    [Fact]
    public void Constructor_checks_its_arguments()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Beacon(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new Beacon(65536));
        Assert.Throws<ArgumentNullException>(() => new Beacon(0, null!));
        Assert.Throws<ArgumentException>(() => new Beacon(0, System.Net.IPAddress.IPv6Loopback));
        using var beacon = new Beacon(0);
        Assert.Equal(System.Net.IPAddress.Broadcast, beacon.BroadcastAddress);
        Assert.NotEqual(0, beacon.Port);
    }
}
