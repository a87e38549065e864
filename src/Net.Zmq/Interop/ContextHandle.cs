using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// Owns a libzmq context. Each open socket holds a reference, so <c>zmq_ctx_term</c> runs only after the last
/// socket is closed. Termination waits for lingering messages; it runs inline only when <see cref="Context.Dispose"/>
/// releases the last reference, and on a background thread otherwise (a finalizer never blocks).
/// </summary>
internal sealed class ContextHandle : SafeHandle
{
    private int _inlineTerminationThread;

    internal ContextHandle(nint handle)
        : base(0, ownsHandle: true) => SetHandle(handle);

    public override bool IsInvalid => handle == 0;

    /// <summary>Releases the caller's reference; if it was the last one, terminates the context on this thread.</summary>
    internal void DisposeAndTerminateInline()
    {
        _inlineTerminationThread = Environment.CurrentManagedThreadId;
        try
        {
            Dispose();
        }
        finally
        {
            _inlineTerminationThread = 0;
        }
    }

    protected override bool ReleaseHandle()
    {
        nint context = handle;
        if (_inlineTerminationThread == Environment.CurrentManagedThreadId)
        {
            Terminate(context);
        }
        else
        {
            var thread = new Thread(static state => Terminate((nint)state!)) { IsBackground = true, Name = "Net.Zmq context termination" };
            thread.Start(context);
        }

        return true;
    }

    private static void Terminate(nint context)
    {
        while (LibZmq.CtxTerm(context) != 0 && LibZmq.Errno() == ZmqError.EINTR)
        {
        }
    }
}
