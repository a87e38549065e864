using System.Runtime.InteropServices;
using Net.Zmq.Diagnostics;

namespace Net.Zmq.Interop;

/// <summary>
/// Owns a libzmq context. Each open socket holds a reference, so <c>zmq_ctx_term</c> runs only after the last
/// socket is closed. Termination waits for lingering messages, always on a background thread: when
/// <see cref="Context.Dispose"/> releases the last reference it waits for that thread, but at most
/// <see cref="InlineTerminationLimit"/> (a socket given an infinite linger may hold undeliverable messages forever),
/// and a finalizer never waits.
/// </summary>
internal sealed class ContextHandle : SafeHandle
{
    /// <summary>How long <see cref="Context.Dispose"/> waits for libzmq to finish terminating before it returns anyway.</summary>
    internal static readonly TimeSpan InlineTerminationLimit = TimeSpan.FromSeconds(10);

    private int _inlineTerminationThread;
    private bool _terminationStartedInline;
    private nint _native;

    // Completed by the termination thread once zmq_ctx_term returned; awaited by Context.DisposeAsync.
    private readonly TaskCompletionSource _terminated = new(TaskCreationOptions.RunContinuationsAsynchronously);

    internal ContextHandle(nint handle)
        : base(0, ownsHandle: true)
    {
        SetHandle(handle);
        ZmqMetrics.ContextOpened();
    }

    public override bool IsInvalid => handle == 0;

    /// <summary>
    /// Releases the caller's reference; if it was the last one, waits (at most <see cref="InlineTerminationLimit"/>)
    /// for the context's termination.
    /// </summary>
    internal void DisposeAndTerminateInline() => DisposeAndStartTermination()?.Wait(InlineTerminationLimit);

    /// <summary>
    /// Releases the caller's reference without waiting; if it was the last one, returns a task that completes when the
    /// context's termination (started on its own thread) has finished, else null.
    /// </summary>
    internal Task? DisposeAndStartTermination()
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

        return _terminationStartedInline ? _terminated.Task : null;
    }

    protected override bool ReleaseHandle()
    {
        ZmqMetrics.ContextClosed();
        var thread = new Thread(static state =>
        {
            var owner = (ContextHandle)state!;
            Terminate(owner._native);
            owner._terminated.TrySetResult();
        })
        { IsBackground = true, Name = "Net.Zmq context termination" };
        _native = handle;
        thread.Start(this);
        _terminationStartedInline = _inlineTerminationThread == Environment.CurrentManagedThreadId;

        return true;
    }

    private static void Terminate(nint context)
    {
        while (LibZmq.CtxTerm(context) != 0 && ErrnoPolicy.Classify(LibZmq.Errno(), dontWait: false) == AfterFailure.Retry)
        {
        }
    }
}
