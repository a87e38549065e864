using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// Owns a libzmq socket and keeps its context alive: it adds a reference to the context handle when created
/// and releases it after <c>zmq_close</c>, which never blocks (lingering happens in libzmq's background).
/// </summary>
internal sealed class SocketHandle : SafeHandle
{
    private readonly ContextHandle _context;

    private SocketHandle(ContextHandle context)
        : base(0, ownsHandle: true) => _context = context;

    public override bool IsInvalid => handle == 0;

    /// <summary>Creates a socket of <paramref name="type"/> in <paramref name="context"/>; returns null with errno set on failure.</summary>
    internal static SocketHandle? Create(ContextHandle context, int type, out int errorNumber)
    {
        var socket = new SocketHandle(context);
        bool added = false;
        context.DangerousAddRef(ref added);
        nint native = LibZmq.Socket(context.DangerousGetHandle(), type);
        if (native == 0)
        {
            errorNumber = LibZmq.Errno();
            context.DangerousRelease();
            GC.SuppressFinalize(socket);
            return null;
        }

        errorNumber = 0;
        socket.SetHandle(native);
        return socket;
    }

    protected override bool ReleaseHandle()
    {
        LibZmq.Close(handle);
        _context.DangerousRelease();
        return true;
    }
}
