using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// libzmq's built-in proxy (<c>zmq_proxy</c>, <c>zmq_proxy_steerable</c>): moves messages between a frontend and a
/// backend socket on the calling thread, both ways, until it is stopped. Typical pairs are ROUTER/DEALER (a shared
/// request queue), XSUB/XPUB (a pub-sub forwarder) and PULL/PUSH (a pipeline streamer).
/// </summary>
/// <remarks>
/// The proxy owns its sockets while it runs: its run is a call on each of them, so another thread's call on one of
/// them throws <see cref="InvalidOperationException"/> until it returns, and a proxy that finds another thread inside a
/// call on one of them does not start. A socket used
/// with the asynchronous methods (<c>SendAsync</c>, <c>RecvAsync</c>, ...) is driven by Net.Zmq's reactor and is refused
/// with <see cref="InvalidOperationException"/>; while the proxy runs, its sockets' asynchronous methods are refused. Each socket is
/// kept alive for the whole run, so disposing one meanwhile only closes it after the proxy has returned. Stop a proxy
/// by shutting its context down (<see cref="Context.Shutdown"/> or <see cref="Context.Dispose"/>), or a steerable
/// one with <see cref="ProxyController.Terminate"/>; both return quietly. If a signal interrupts libzmq (EINTR) the
/// proxy is started again: a steerable proxy then runs unpaused with its statistics back at zero.
/// </remarks>
public static class Proxy
{
    /// <summary>
    /// Runs the proxy on the calling thread (<c>zmq_proxy</c>) until the context of its sockets is shut down, then
    /// returns quietly. With a <paramref name="capture"/> socket (PUB, PUSH, PAIR or DEALER), a copy of every frame
    /// the proxy forwards, either way, is sent to it.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="frontend"/> or <paramref name="backend"/> is null.</exception>
    /// <exception cref="ArgumentException">The same socket is passed twice.</exception>
    /// <exception cref="ObjectDisposedException">A socket was disposed; the proxy did not start.</exception>
    /// <exception cref="InvalidOperationException">A socket has been used with the asynchronous methods, or another thread is inside a call on one; the proxy did not start.</exception>
    /// <exception cref="ZmqException">libzmq stopped the proxy with an error (for example ENOTSUP: the capture socket cannot send).</exception>
    public static void Start(Socket frontend, Socket backend, Socket? capture = null)
    {
        ArgumentNullException.ThrowIfNull(frontend);
        ArgumentNullException.ThrowIfNull(backend);
        ThrowIfShared(frontend, backend, capture, control: null);
        Run(frontend, backend, capture, control: null);
    }

    /// <summary>
    /// Runs a proxy that <paramref name="control"/> can pause, resume, query and stop (<c>zmq_proxy_steerable</c>),
    /// on the calling thread. Returns quietly when the control socket receives TERMINATE, or when the context is
    /// shut down. Steer it with a <see cref="ProxyController"/> over a PAIR socket connected to <paramref name="control"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The control socket must be able to receive: PAIR is the one to use (every command works, and STATISTICS is
    /// answered on it). SUB and PULL accept PAUSE, RESUME and TERMINATE but cannot answer STATISTICS (libzmq then stops
    /// the proxy with an error). REP answers only STATISTICS in libzmq 4.3.x: after PAUSE, RESUME or TERMINATE it waits
    /// to send a reply that never comes, and the proxy ignores every later command. (libzmq after 4.3.5 replies to
    /// every command on REP.) DEALER behaves like PAIR with one peer.
    /// </para>
    /// <para>
    /// Every control message must be one frame holding exactly PAUSE, RESUME, TERMINATE or STATISTICS: libzmq 4.3.x
    /// aborts the whole process on any other command, and stops the proxy with an error on a multipart one.
    /// <see cref="ProxyController"/> sends only valid commands. While paused, the proxy forwards nothing; messages wait
    /// in the queues (up to their high water marks). In libzmq 4.3.x a paused proxy keeps one CPU core busy while any
    /// message is waiting for it, so keep pauses short; and the capture socket also receives a copy of each control
    /// command.
    /// </para>
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="frontend"/>, <paramref name="backend"/> or <paramref name="control"/> is null.</exception>
    /// <exception cref="ArgumentException">The same socket is passed twice, or <paramref name="control"/> is of a type that cannot receive commands (PUB, PUSH, REQ, ROUTER, STREAM, XPUB, XSUB).</exception>
    /// <exception cref="ObjectDisposedException">A socket was disposed; the proxy did not start.</exception>
    /// <exception cref="InvalidOperationException">A socket has been used with the asynchronous methods, or another thread is inside a call on one; the proxy did not start.</exception>
    /// <exception cref="ZmqException">libzmq stopped the proxy with an error (for example STATISTICS sent to a control socket that cannot reply).</exception>
    public static void StartSteerable(Socket frontend, Socket backend, Socket? capture, Socket control)
    {
        ArgumentNullException.ThrowIfNull(frontend);
        ArgumentNullException.ThrowIfNull(backend);
        ArgumentNullException.ThrowIfNull(control);
        if (control.Type is not (SocketType.Pair or SocketType.Rep or SocketType.Dealer or SocketType.Sub or SocketType.Pull))
        {
            ThrowHelper.ThrowArgument(
                $"A {control.Type} socket cannot serve as the proxy's control socket: it must receive single-frame commands. Use PAIR (with a PAIR ProxyController), or SUB/PULL for commands without STATISTICS.",
                nameof(control));
        }

        ThrowIfShared(frontend, backend, capture, control);
        Run(frontend, backend, capture, control);
    }

    private static void ThrowIfShared(Socket frontend, Socket backend, Socket? capture, Socket? control)
    {
        if (ReferenceEquals(frontend, backend))
        {
            ThrowHelper.ThrowArgument("The frontend and the backend must be two different sockets.", nameof(backend));
        }

        if (capture is not null && (ReferenceEquals(capture, frontend) || ReferenceEquals(capture, backend)))
        {
            ThrowHelper.ThrowArgument("The capture socket must not also be the frontend or the backend.", nameof(capture));
        }

        if (control is not null && (ReferenceEquals(control, frontend) || ReferenceEquals(control, backend) || ReferenceEquals(control, capture)))
        {
            ThrowHelper.ThrowArgument("The control socket must not also be the frontend, the backend or the capture socket.", nameof(control));
        }
    }

    private static void Run(Socket frontend, Socket backend, Socket? capture, Socket? control)
    {
        NativeLibraryLoader.EnsureLoaded();
        bool frontendEntered = false, backendEntered = false, captureEntered = false, controlEntered = false;
        bool frontendClaimed = false, backendClaimed = false, captureClaimed = false, controlClaimed = false;
        try
        {
            // Every handle stays referenced until the proxy returns, so a concurrent Dispose cannot close it under libzmq.
            nint frontendHandle = frontend.Gate.Hold("a Proxy");
            frontendEntered = true;
            nint backendHandle = backend.Gate.Hold("a Proxy");
            backendEntered = true;
            nint captureHandle = 0, controlHandle = 0;
            if (capture is not null)
            {
                captureHandle = capture.Gate.Hold("a Proxy");
                captureEntered = true;
            }

            if (control is not null)
            {
                controlHandle = control.Gate.Hold("a Proxy");
                controlEntered = true;
            }

            // The run is one call on each of its sockets, made under each one's claim: another thread's call on one of
            // them meanwhile is refused, and a proxy that finds another thread inside a call on one does not start.
            frontendClaimed = frontend.Gate.BeginHeldCall();
            backendClaimed = backend.Gate.BeginHeldCall();
            captureClaimed = capture?.Gate.BeginHeldCall() ?? false;
            controlClaimed = control?.Gate.BeginHeldCall() ?? false;
            while (true)
            {
                int rc = control is null
                    ? LibZmq.Proxy(frontendHandle, backendHandle, captureHandle)
                    : LibZmq.ProxySteerable(frontendHandle, backendHandle, captureHandle, controlHandle);
                if (rc == 0)
                {
                    return; // TERMINATE on the control socket
                }

                int errorNumber = LibZmq.Errno();
                if (errorNumber == Errno.ETERM)
                {
                    return; // the context was shut down: the normal way to stop a proxy
                }

                if (ErrnoPolicy.Classify(errorNumber, dontWait: false) != AfterFailure.Retry)
                {
                    ThrowHelper.ThrowZmq(errorNumber,
                        control is null ? "The proxy (zmq_proxy)" : "The steerable proxy (zmq_proxy_steerable)");
                }
            }
        }
        finally
        {
            EndHeldCall(control, controlClaimed);
            EndHeldCall(capture, captureClaimed);
            EndHeldCall(backend, backendClaimed);
            EndHeldCall(frontend, frontendClaimed);
            if (controlEntered)
            {
                control!.Gate.ReleaseHold();
            }

            if (captureEntered)
            {
                capture!.Gate.ReleaseHold();
            }

            if (backendEntered)
            {
                backend.Gate.ReleaseHold();
            }

            if (frontendEntered)
            {
                frontend.Gate.ReleaseHold();
            }
        }
    }

    private static void EndHeldCall(Socket? socket, bool claimed)
    {
        if (claimed)
        {
            socket!.Gate.EndCall();
        }
    }
}
