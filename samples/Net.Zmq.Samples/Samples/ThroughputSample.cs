using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using Net.Zmq.Monitoring;

namespace Net.Zmq.Samples;

/// <summary>
/// A quick measurement over tcp on the loopback interface: PUSH/PULL throughput of small messages, then REQ/REP round-trip
/// latency. Every figure printed is measured on this run; each message is also checked, so a loss fails the sample.
/// </summary>
internal sealed class ThroughputSample : ISample
{
    private const int Messages = 100_000;
    private const int MessageSize = 64;
    private const int RoundTrips = 10_000;
    private const int WarmUpRoundTrips = 1_000;

    public string Name => "throughput";

    public string Description => "PUSH/PULL throughput of 100,000 × 64-byte messages and REQ/REP latency over tcp (measured)";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        MeasureThroughput(context, log);
        MeasureLatency(context, log);
    }

    private static void MeasureThroughput(Context context, SampleLog log)
    {
        using Socket pull = Sample.CreateSocket(context, SocketType.Pull);
        pull.Bind(Sample.AnyPort);
        using Socket push = Sample.CreateSocket(context, SocketType.Push);
        using (var pushEvents = new SocketMonitor(push, SocketEvents.HandshakeSucceeded))
        {
            push.Connect(pull.LastEndpoint);
            pushEvents.WaitFor(SocketEvents.HandshakeSucceeded, Sample.Timeout); // keep connecting out of the measurement
        }

        long start = 0;
        var sender = SampleThread.Start("push-sender", () =>
        {
            Span<byte> payload = stackalloc byte[MessageSize];
            payload.Fill(0xAB);
            Volatile.Write(ref start, Stopwatch.GetTimestamp());
            for (int i = 0; i < Messages; i++)
            {
                BinaryPrimitives.WriteInt32LittleEndian(payload, i); // a sequence number, checked on arrival
                push.Send(payload);
            }
        });

        // Receive into one reused buffer: no allocation per message.
        var buffer = new byte[MessageSize];
        int inOrder = 0;
        for (int i = 0; i < Messages; i++)
        {
            int size = pull.Recv(buffer);
            if (size == MessageSize && BinaryPrimitives.ReadInt32LittleEndian(buffer) == i)
            {
                inOrder++;
            }
        }

        long end = Stopwatch.GetTimestamp();
        sender.Join(Sample.Timeout);

        double seconds = Stopwatch.GetElapsedTime(Volatile.Read(ref start), end).TotalSeconds;
        log.Check(inOrder == Messages, $"{inOrder} of {Messages} messages arrived whole and in order");
        log.Info(string.Create(CultureInfo.InvariantCulture,
            $"PUSH/PULL: {Messages:N0} × {MessageSize} B in {seconds * 1000:F1} ms = {Messages / seconds:N0} msg/s, {Messages * (double)MessageSize / seconds / 1e6:F1} MB/s; {inOrder:N0} arrived in order"));
    }

    private static void MeasureLatency(Context context, SampleLog log)
    {
        using Socket rep = Sample.CreateSocket(context, SocketType.Rep);
        rep.Bind(Sample.AnyPort);
        using Socket req = Sample.CreateSocket(context, SocketType.Req);
        req.Connect(rep.LastEndpoint);

        var echo = SampleThread.Start("rep-echo", () =>
        {
            var request = new byte[MessageSize];
            for (int i = 0; i < WarmUpRoundTrips + RoundTrips; i++)
            {
                int size = rep.Recv(request);
                rep.Send(request.AsSpan(0, Math.Min(size, MessageSize)));
            }
        });

        var payload = new byte[MessageSize];
        var reply = new byte[MessageSize];
        var microseconds = new double[RoundTrips];
        int echoed = 0;
        for (int i = -WarmUpRoundTrips; i < RoundTrips; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(payload, i);
            long t0 = Stopwatch.GetTimestamp();
            req.Send(payload);
            int size = req.Recv(reply);
            long t1 = Stopwatch.GetTimestamp();
            if (i < 0)
            {
                continue; // warm-up: connection set-up, JIT, caches
            }

            microseconds[i] = Stopwatch.GetElapsedTime(t0, t1).TotalMicroseconds;
            if (size == MessageSize && BinaryPrimitives.ReadInt32LittleEndian(reply) == i)
            {
                echoed++;
            }
        }

        echo.Join(Sample.Timeout);
        Array.Sort(microseconds);
        double mean = microseconds.Average();
        double p99 = microseconds[(int)Math.Ceiling(RoundTrips * 0.99) - 1];
        log.Check(echoed == RoundTrips, $"{echoed} of {RoundTrips} replies echo their request");
        log.Check(mean > 0 && p99 >= microseconds[0], "the latencies were measured");
        log.Info(string.Create(CultureInfo.InvariantCulture,
            $"REQ/REP: {RoundTrips:N0} round trips of {MessageSize} B (after {WarmUpRoundTrips:N0} warm-up): mean {mean:F1} µs, p50 {microseconds[RoundTrips / 2]:F1} µs, p99 {p99:F1} µs, max {microseconds[^1]:F1} µs"));
    }
}
