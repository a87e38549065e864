using System.Diagnostics;

namespace Net.Zmq.Interop;

/// <summary>
/// One monitoring (<c>zmq_socket_monitor</c>) of a socket into the event socket of a
/// <see cref="Monitoring.SocketMonitor"/>, shared by the two sockets' handles: it decides when the event socket's native
/// socket may be closed.
/// </summary>
/// <remarks>
/// <para>libzmq sends each event with a blocking send, from whichever thread raises it (the application's, its I/O thread,
/// its reaper), and goes on after the monitored socket's <c>zmq_close</c>; only <c>zmq_socket_monitor(s, NULL, 0)</c>,
/// the context's termination or the socket's destruction end the monitoring. An event sent while the event socket is
/// closed finds no reader, and stops that libzmq thread until the context ends (with the I/O thread, every tcp socket of
/// the context). So:</para>
/// <para><b>Invariant: the event socket's native socket is closed only once the monitoring into it has stopped.</b> Of the
/// stop (<see cref="Stopped"/>) and the event socket's release (<see cref="TryLeaveCloseToStop"/>, by Dispose or by its
/// finalizer), whichever comes second closes it; <c>_lock</c> orders the two. The monitored socket's handle holds this
/// link while it monitors, and with it the event socket's handle: an event socket nobody disposes stays open while its
/// socket lives. Dropped together, the two handles may be finalized in either order, which the invariant covers; and a
/// stop never sends into a closed event socket (<c>MONITOR_STOPPED</c> would block there, on the finalizer's thread).</para>
/// <para>Who stops: the monitored socket's release, before <c>zmq_close</c> (<see cref="SocketHandle"/>); a new
/// <c>zmq_socket_monitor</c> call on that socket (which replaces or ends this one); and, once the SocketMonitor is
/// disposed, the first moment the socket is free (<see cref="Internal.SocketGate"/>). Each removes the link from the
/// monitored handle, under that handle's lock, before calling <see cref="Stopped"/>, so a link stops once.</para>
/// </remarks>
internal sealed class MonitorLink
{
    private readonly object _lock = new();
    private readonly SocketHandle _events;

    // Under _lock. _stopped: libzmq sends no more events to _events. _eventsReleased: _events was released before that,
    // so its zmq_close waits for the stop.
    private bool _stopped;
    private bool _eventsReleased;

    // The SocketMonitor was disposed: the monitored socket stops the monitoring at its first chance.
    private volatile bool _monitorDisposed;

    /// <summary>Links a monitoring to come to the event socket <paramref name="events"/>, before libzmq is asked for it.</summary>
    internal MonitorLink(SocketHandle events)
    {
        _events = events;
        events.ServeAsEventSocketOf(this);
    }

    /// <summary>Whether the SocketMonitor was disposed (<see cref="MarkMonitorDisposed"/>).</summary>
    internal bool IsMonitorDisposed => _monitorDisposed;

    /// <summary>The SocketMonitor was disposed: stopping is wanted as soon as the monitored socket allows.</summary>
    internal void MarkMonitorDisposed() => _monitorDisposed = true;

    /// <summary>
    /// libzmq sends no more events to the event socket (or never started to); closes it now if it was released meanwhile.
    /// </summary>
    internal void Stopped()
    {
        bool closeNow;
        lock (_lock)
        {
            Debug.Assert(!_stopped, "a monitoring stops once");
            _stopped = true;
            closeNow = _eventsReleased;
        }

        if (closeNow)
        {
            _events.CloseNative();
        }
    }

    /// <summary>
    /// The event socket's release: true when the monitoring still runs, and the native socket is left for
    /// <see cref="Stopped"/> to close; false when the release may close it now.
    /// </summary>
    internal bool TryLeaveCloseToStop()
    {
        lock (_lock)
        {
            Debug.Assert(!_eventsReleased, "the event socket is released once");
            _eventsReleased = !_stopped;
            return _eventsReleased;
        }
    }
}
