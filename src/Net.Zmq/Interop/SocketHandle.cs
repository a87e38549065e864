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

    protected override bool ReleaseHandle()
    {
        _ = LibZmq.Close(handle); // never fails for a socket libzmq created; the only possible error is ENOTSOCK
        _context.DangerousRelease();
        ZmqMetrics.SocketClosed(_type);
        return true;
    }
}
