using System.Diagnostics;
using Net.Zmq.Internal;

namespace Net.Zmq;

/// <summary>
/// A timer of an <see cref="EventLoop"/>, made by <see cref="EventLoop.AddTimer(TimeSpan, Action{EventLoopTimer})"/> (periodic) or
/// <see cref="EventLoop.AddOneShotTimer"/>. Its handler runs on the loop thread, never early and never twice at once.
/// Every member may be called from any thread, inside a handler included; a change made from another thread takes
/// effect for the next tick (a tick already under way may still run).
/// </summary>
/// <remarks>
/// A periodic timer keeps a fixed rate: each tick is due one <see cref="Interval"/> after the previous tick was due, so
/// time spent in handlers does not make it drift. When the loop falls a whole interval or more behind, the missed ticks
/// are skipped rather than run back to back, and the next tick keeps to the same grid. See docs/event-loop.md for the
/// tolerance.
/// </remarks>
public sealed class EventLoopTimer : IDisposable
{
    private readonly EventLoop _loop;
    private readonly Action<EventLoopTimer> _elapsed;

    // Guarded by the loop's lock.
    private long _intervalTicks;
    private TimeSpan _interval;
    private bool _enabled;
    private volatile bool _disposed;

    internal EventLoopTimer(EventLoop loop, TimeSpan interval, bool periodic, Action<EventLoopTimer> elapsed)
    {
        _loop = loop;
        _elapsed = elapsed;
        IsPeriodic = periodic;
        _interval = interval;
        _intervalTicks = ToStopwatchTicks(interval);
    }

    /// <summary>When the next tick is due, in <see cref="Stopwatch"/> ticks; guarded by the loop's lock.</summary>
    internal long Due { get; set; }

    /// <summary>When the tick being handled was due, in <see cref="Stopwatch"/> ticks (for measuring lateness).</summary>
    internal long TickDue { get; private set; }

    /// <summary>The timer's place in the loop's <see cref="TimerHeap"/>, or -1 when it is not in it.</summary>
    internal int HeapIndex { get; set; } = -1;

    /// <summary>The loop the timer belongs to.</summary>
    public EventLoop Loop => _loop;

    /// <summary>Whether the timer ticks every <see cref="Interval"/> (true) or once (false).</summary>
    public bool IsPeriodic { get; }

    /// <summary>
    /// The time from one tick to the next (for a one-shot timer, from <see cref="Restart"/> or enabling to its tick).
    /// Setting it restarts the countdown from now with the new value, if the timer is enabled.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive or exceeds <see cref="int.MaxValue"/> milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The timer was disposed (on set).</exception>
    public TimeSpan Interval
    {
        get
        {
            lock (_loop.Gate)
            {
                return _interval;
            }
        }

        set
        {
            ValidateInterval(value, nameof(value));
            lock (_loop.Gate)
            {
                ThrowIfDisposed();
                _interval = value;
                _intervalTicks = ToStopwatchTicks(value);
                if (_enabled)
                {
                    ScheduleFromNow();
                }
            }

            _loop.WakeIfElsewhere();
        }
    }

    /// <summary>
    /// Whether the timer is counting down. Setting it to false stops it without disposing it; setting it to true (when
    /// it was false) starts a new countdown of one <see cref="Interval"/> from now. A one-shot timer turns false when it
    /// has ticked, and setting it true again arms it for one more tick.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The timer was disposed (on set).</exception>
    public bool IsEnabled
    {
        get
        {
            lock (_loop.Gate)
            {
                return _enabled;
            }
        }

        set
        {
            lock (_loop.Gate)
            {
                ThrowIfDisposed();
                if (value == _enabled)
                {
                    return;
                }

                _enabled = value;
                if (value)
                {
                    ScheduleFromNow();
                }
                else
                {
                    _loop.Timers.Remove(this);
                }
            }

            _loop.WakeIfElsewhere();
        }
    }

    /// <summary>Whether <see cref="Dispose"/> was called (or the loop was disposed).</summary>
    public bool IsDisposed => _disposed || _loop.IsDisposed;

    /// <summary>
    /// Enables the timer and starts its countdown again from now: the next tick is one <see cref="Interval"/> away. The
    /// way to push back a deadline, such as a heartbeat's, each time the awaited thing happens.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The timer was disposed.</exception>
    public void Restart()
    {
        lock (_loop.Gate)
        {
            ThrowIfDisposed();
            _enabled = true;
            ScheduleFromNow();
        }

        _loop.WakeIfElsewhere();
    }

    /// <summary>Cancels the timer and removes it from its loop; it never ticks again. Calling it again does nothing.</summary>
    public void Dispose()
    {
        lock (_loop.Gate)
        {
            DisposeLocked();
        }
    }

    /// <inheritdoc />
    public override string ToString() => $"{(IsPeriodic ? "periodic" : "one-shot")} timer, {Interval.TotalMilliseconds} ms";

    /// <summary>Cancels the timer; the caller holds the loop's lock.</summary>
    internal void DisposeLocked()
    {
        _disposed = true;
        _enabled = false;
        _loop.Timers.Remove(this);
    }

    /// <summary>Starts the timer for its first tick; the caller holds the loop's lock.</summary>
    internal void StartLocked()
    {
        _enabled = true;
        ScheduleFromNow();
    }

    /// <summary>
    /// Takes the tick that is due at <paramref name="now"/> (the caller holds the loop's lock): schedules the next one of a
    /// periodic timer, or disables a one-shot timer.
    /// </summary>
    internal void TakeTickLocked(long now)
    {
        TickDue = Due;
        if (IsPeriodic)
        {
            // The next slot of the timer's grid after now: ticks missed while the loop was held up are skipped, not bunched.
            Due += ((now - Due) / _intervalTicks + 1) * _intervalTicks;
            _loop.Timers.Set(this);
        }
        else
        {
            _enabled = false;
            _loop.Timers.Remove(this);
        }
    }

    /// <summary>Runs the handler on the loop thread, unless the timer was disposed since its tick was taken.</summary>
    internal void Fire()
    {
        if (!_disposed)
        {
            _elapsed(this);
        }
    }

    internal static void ValidateInterval(TimeSpan interval, string paramName)
    {
        if (interval <= TimeSpan.Zero || interval.TotalMilliseconds > int.MaxValue)
        {
            ThrowHelper.ThrowArgumentOutOfRange(paramName, interval, "A timer's interval must be positive and at most int.MaxValue milliseconds.");
        }
    }

    private static long ToStopwatchTicks(TimeSpan interval) =>
        Math.Max(1, (long)(interval.Ticks * ((double)Stopwatch.Frequency / TimeSpan.TicksPerSecond)));

    private void ScheduleFromNow()
    {
        Due = Stopwatch.GetTimestamp() + _intervalTicks;
        _loop.Timers.Set(this);
    }

    private void ThrowIfDisposed()
    {
        if (_disposed || _loop.IsClosed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }
    }
}
