using System.Buffers.Binary;
using System.Diagnostics;
using Net.Zmq.Soak.Peers;
using Net.Zmq.Soak.Scenarios;

namespace Net.Zmq.Reliability.Tests.Support;

/// <summary>
/// Receives the stamped, numbered frames of a <c>peer push</c> child on a background thread and checks them as they
/// come: sequence (<see cref="Check"/>), corruption, and latency from the child's send stamp.
/// </summary>
internal sealed class StampedStreamReceiver : IDisposable
{
    private readonly Socket _pull;
    private readonly Thread _thread;
    private readonly object _lock = new();
    private volatile bool _stopping;
    private Exception? _failure;

    /// <summary>Starts receiving on <paramref name="pull"/>, which no other thread may use until disposal.</summary>
    public StampedStreamReceiver(Socket pull)
    {
        _pull = pull;
        _thread = new Thread(Receive) { IsBackground = true, Name = "stamped stream receiver" };
        _thread.Start();
    }

    /// <summary>The sequence seen so far (read under the receiver's lock through <see cref="Snapshot"/>).</summary>
    public SequenceCheck Check { get; } = new();

    /// <summary>Frames of the wrong size or with a broken check word.</summary>
    public long Corrupt { get; private set; }

    /// <summary>Smallest send-to-receive latency seen.</summary>
    public TimeSpan MinLatency { get; private set; } = TimeSpan.MaxValue;

    /// <summary>Largest send-to-receive latency seen.</summary>
    public TimeSpan MaxLatency { get; private set; }

    /// <summary>The figures so far, consistent with each other.</summary>
    public (long Received, long Last, long Missing, long Backwards, long Corrupt) Snapshot()
    {
        lock (_lock)
        {
            return (Check.Received, Check.Last, Check.Missing, Check.Backwards, Corrupt);
        }
    }

    /// <summary>Waits until <paramref name="more"/> frames beyond those received now have arrived; false on timeout.</summary>
    public bool WaitForMore(long more, TimeSpan timeout)
    {
        lock (_lock)
        {
            long target = Check.Received + more;
            var clock = Stopwatch.StartNew();
            while (Check.Received < target)
            {
                TimeSpan left = timeout - clock.Elapsed;
                if (left <= TimeSpan.Zero || _failure is not null || !Monitor.Wait(_lock, left))
                {
                    return Check.Received >= target;
                }
            }

            return true;
        }
    }

    /// <summary>Stops the thread and rethrows what it failed with, if anything.</summary>
    public void Dispose()
    {
        _stopping = true;
        Assert.True(_thread.Join(TimeSpan.FromSeconds(10)), "the stream receiver did not stop");
        Assert.Null(_failure);
    }

    private void Receive()
    {
        try
        {
            Span<byte> frame = stackalloc byte[PeerProcess.StampedFrameSize];
            using var poller = new Poller(1);
            poller.Add(_pull, PollEvents.In);
            while (!_stopping)
            {
                if (poller.Poll(100) > 0)
                {
                    while (_pull.TryRecv(frame, out int size))
                    {
                        Record(frame, size);
                    }
                }
            }
        }
        catch (Exception ex)
        {
            _failure = ex;
            lock (_lock)
            {
                Monitor.PulseAll(_lock);
            }
        }
    }

    private void Record(ReadOnlySpan<byte> frame, int size)
    {
        TimeSpan latency = Stopwatch.GetElapsedTime(BinaryPrimitives.ReadInt64LittleEndian(frame[16..]));
        lock (_lock)
        {
            if (size != PeerProcess.StampedFrameSize || !StreamScenarios.TryRead(frame, out long sequence))
            {
                Corrupt++;
            }
            else
            {
                Check.Observe(sequence);
                MinLatency = latency < MinLatency ? latency : MinLatency;
                MaxLatency = latency > MaxLatency ? latency : MaxLatency;
            }

            Monitor.PulseAll(_lock);
        }
    }
}
