using System.Diagnostics;
using System.Runtime.InteropServices;
using Net.Zmq.Diagnostics;
using Net.Zmq.Internal;

namespace Net.Zmq.Interop;

/// <summary>
/// Owns a libzmq socket and keeps its context alive: it adds a reference to the context handle when created
/// and releases it after <c>zmq_close</c>, which never blocks (lingering happens in libzmq's background).
/// </summary>
/// <remarks>
/// Whoever drives the native socket outside a <see cref="SocketCall"/> — a <see cref="Poller"/> entry, a running
/// <see cref="Proxy"/>, the async driver's pump — holds a lease (<see cref="Lease"/> … <see cref="EndLease"/>), and
/// <c>zmq_close</c> waits until the last lease ends.
/// </remarks>
internal sealed class SocketHandle : SafeHandle
{
    private readonly ContextHandle _context;
    private readonly int _type;

    // The SocketMonitor this socket's libzmq monitoring publishes to, or null (none, or a raw Socket.Monitor's PAIR).
    // Changed, under lock (this), only together with the zmq_socket_monitor call that makes it true, which a caller
    // makes under the socket's claim or a lease; ReleaseHandle, which runs when neither is left, stops that monitoring
    // before zmq_close. See MonitorLink.
    private MonitorLink? _monitoring;

    // When this is a SocketMonitor's event socket: the link that says when its native socket may be closed.
    private MonitorLink? _eventSocketOf;

    private SocketHandle(ContextHandle context, int type)
        : base(0, ownsHandle: true)
    {
        _context = context;
        _type = type;
    }

    public override bool IsInvalid => handle == 0;

    /// <summary>Creates a socket of <paramref name="type"/> in <paramref name="context"/>; returns null with errno set on failure.</summary>
    internal static SocketHandle? Create(ContextHandle context, int type, out int errorNumber)
    {
        var socket = new SocketHandle(context, type);
        bool added = false;
        context.DangerousAddRef(ref added);
        nint native = LibZmq.Socket(context.DangerousGetHandle(), type);
        if (native == 0)
        {
            errorNumber = LibZmq.Errno();
            context.DangerousRelease();
            socket.Dispose(); // never held a native socket: nothing to close, nothing left to finalise
            return null;
        }

        errorNumber = 0;
        socket.SetHandle(native);
        ZmqMetrics.SocketOpened(type);
        return socket;
    }

    /// <summary>Takes a lease and returns the native socket; end it with <see cref="EndLease"/>.</summary>
    /// <exception cref="ObjectDisposedException">The handle is closed; the exception names <paramref name="owner"/>.</exception>
    internal nint Lease(object owner) => this.Enter(owner);

    /// <summary>Takes a lease unless the handle is closed.</summary>
    internal bool TryLease(out nint socket)
    {
        bool added = false;
        try
        {
            DangerousAddRef(ref added);
        }
        catch (ObjectDisposedException)
        {
        }

        socket = added ? handle : 0;
        return added;
    }

    /// <summary>Ends a lease taken with <see cref="Lease"/> or <see cref="TryLease"/>.</summary>
    internal void EndLease() => DangerousRelease();

    /// <summary>
    /// Calls <c>zmq_socket_monitor</c> on this socket (<paramref name="endpoint"/> null: stop), under the caller's claim or
    /// lease, and records which SocketMonitor, if any, libzmq now publishes to: <paramref name="into"/>, or none for a raw
    /// <see cref="Socket.Monitor"/> or a stop. The SocketMonitor publishing before learns that its monitoring stopped.
    /// </summary>
    /// <returns>0, or the error number of the failed call.</returns>
    internal unsafe int Monitor(nint socket, byte* endpoint, int events, MonitorLink? into)
    {
        lock (this)
        {
            int errorNumber = LibZmq.SocketMonitor(socket, endpoint, events) == 0 ? 0 : LibZmq.Errno();

            // EINVAL and EPROTONOSUPPORT (a malformed endpoint or mask, not inproc) come before libzmq touches the
            // monitoring under way; success, or any later failure, has ended it.
            if (errorNumber != Errno.EINVAL && errorNumber != Errno.EPROTONOSUPPORT)
            {
                MonitorLink? ended = _monitoring;
                _monitoring = errorNumber == 0 ? into : null;
                ended?.Stopped();
            }

            return errorNumber;
        }
    }

    /// <summary>
    /// Stops the monitoring if it publishes to a SocketMonitor that was disposed; under the caller's claim or lease. The
    /// event socket is still open (see <see cref="MonitorLink"/>), so the stop's <c>MONITOR_STOPPED</c> never blocks.
    /// </summary>
    internal unsafe void StopDisposedMonitor(nint socket)
    {
        lock (this)
        {
            if (_monitoring is { IsMonitorDisposed: true } link)
            {
                _ = LibZmq.SocketMonitor(socket, null, 0); // fails only once the context is shut down, which ended it
                _monitoring = null;
                link.Stopped();
            }
        }
    }

    /// <summary>Makes this the event socket of <paramref name="link"/>, whose native close waits for the monitoring to stop.</summary>
    internal void ServeAsEventSocketOf(MonitorLink link)
    {
        Debug.Assert(_eventSocketOf is null, "an event socket serves one monitor");
        _eventSocketOf = link;
    }

    /// <summary>Closes the native socket and gives back its reference on the context: from <see cref="ReleaseHandle"/>, or from a <see cref="MonitorLink"/> that deferred it.</summary>
    internal void CloseNative()
    {
        _ = LibZmq.Close(handle); // never fails for a socket libzmq created; the only possible error is ENOTSOCK
        _context.DangerousRelease();
        ZmqMetrics.SocketClosed(_type);
    }

    protected override unsafe bool ReleaseHandle()
    {
        lock (this)
        {
            if (_monitoring is { } link)
            {
                // The last chance: libzmq reports the close (the listener's, the connections') after zmq_close, to an
                // event socket that may be gone by then. Stopped here, the monitoring sends no event after this.
                _ = LibZmq.SocketMonitor(handle, null, 0);
                _monitoring = null;
                link.Stopped();
            }
        }

        if (_eventSocketOf?.TryLeaveCloseToStop() == true)
        {
            return true; // the monitored socket still publishes here: MonitorLink.Stopped closes it
        }

        CloseNative();
        return true;
    }
}
