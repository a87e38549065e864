using System.Runtime.CompilerServices;
using Net.Zmq.Async;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// A libzmq socket (<c>zmq_socket</c>). Like libzmq's sockets it is not thread-safe: use it from one thread
/// at a time — except the draft sockets (<see cref="SocketType.Server"/> and the types after it), which libzmq makes
/// thread-safe. <see cref="Dispose"/> may be called from any thread, even while another call is in flight: the
/// native socket is closed when that call returns, never under it.
/// </summary>
public sealed partial class Socket : IDisposable, IAsyncDisposable
{
    private const int Closed = -1;

    private readonly SocketHandle _handle;
    private readonly nint _native;

    // Who is inside a call on this socket: 0 (nobody), the managed id of the calling thread, or Closed once the native
    // socket is closed. BeginClaimedCall's one compare-and-swap both claims the socket for its thread and keeps the
    // native socket open: Dispose closes it only when nobody is inside, or leaves that to the call in flight (EndCall).
    // Draft sockets are thread-safe and never
    // claimed: each call leases the handle instead.
    private int _caller;

    // Calls the owning thread makes inside its own call (a nested BeginCall); only that thread touches it.
    private int _nestedCalls;

    // Set by Dispose before it tries to close; every call after it fails, even while a Poller, a proxy or the async
    // driver still holds a lease on the handle.
    private volatile bool _disposed;

    // Set while a new async driver waits to learn that the synchronous call which may have been in flight when it was
    // created (and so took no gate) has ended; that call's EndCall, or the creator, releases the driver.
    private volatile bool _asyncJoining;

    // The async driver, created by the first asynchronous call; from then on every call on the socket goes through its gate.
    private SocketAsyncDriver? _async;

    // Disposes the async driver if this socket is collected undisposed (the reactor roots the driver, not the socket).
    private SocketAsyncDriverCollector? _asyncCollector;

    // How many Poller entries and running proxies hold the socket. They drive it inside libzmq outside the async
    // gate, so while any holds it no async driver is created, and a socket with one is never held (HoldForPolling).
    private int _holders;

    // SendFlags.SendMore on the draft sockets, which take single-part messages only, and on a socket with Conflate set
    // (a conflating queue keeps one frame, not one message: libzmq aborts the process when a conflating peer receives
    // a multipart message); 0 on the others. One field read and one test on the send path refuse a multipart send
    // before libzmq queues anything.
    private int _refusedSendFlags;

    /// <summary>Creates a socket of <paramref name="type"/> in <paramref name="context"/>, with the context's <see cref="Context.DefaultLinger"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="type"/> is not a <see cref="SocketType"/>.</exception>
    /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    /// <exception cref="NotSupportedException">A draft type (<see cref="SocketType.Server"/> and after) and the loaded libzmq has no draft API.</exception>
    /// <exception cref="ZmqException">libzmq refused (for example EMFILE: too many sockets).</exception>
    public Socket(Context context, SocketType type)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!Enum.IsDefined(type))
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(type), type, "Not a socket type libzmq supports.");
        }

        bool isDraft = IsDraftType(type);
        if (isDraft && !LibZmqDraft.Available)
        {
            ThrowHelper.ThrowDraftMissing($"A {type} socket");
        }

        SocketHandle? handle;
        try
        {
            handle = SocketHandle.Create(context.Handle, (int)type, out int errorNumber);
            if (handle is null)
            {
                if (isDraft && errorNumber == ZmqError.EINVAL)
                {
                    // A libzmq that does not know the type at all.
                    ThrowHelper.ThrowDraftMissing($"A {type} socket");
                }

                ThrowHelper.ThrowZmq(errorNumber, $"Creating a {type} socket");
            }
        }
        catch (ObjectDisposedException)
        {
            ThrowHelper.ThrowObjectDisposed(context);
            throw;
        }

        _handle = handle;
        _native = handle.DangerousGetHandle();
        Context = context;
        Type = type;
        _refusedSendFlags = isDraft ? (int)SendFlags.SendMore : 0;
        if (context.DefaultLingerMilliseconds >= 0)
        {
            try
            {
                SetOption(SocketOption.Linger, context.DefaultLingerMilliseconds);
            }
            catch
            {
                handle.Dispose();
                throw;
            }
        }
    }

    /// <summary>The context this socket belongs to.</summary>
    public Context Context { get; }

    /// <summary>The socket's type.</summary>
    public SocketType Type { get; }

    /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
    public bool IsDisposed => _disposed;

    /// <summary>Whether this is a draft socket: thread-safe, single-part only, without the <c>ZMQ_FD</c> async waits on.</summary>
    internal bool IsDraft => IsDraftType(Type);

    /// <summary>Whether <see cref="SocketOption.Conflate"/> was set on this socket, which then refuses multipart sends.</summary>
    internal bool IsConflating => !IsDraft && _refusedSendFlags != 0;

    /// <summary>Tracks <see cref="SocketOption.Conflate"/> after libzmq accepted it: set, the socket refuses <see cref="SendFlags.SendMore"/>.</summary>
    internal void ConflateChanged(bool conflate)
    {
        if (!IsDraft)
        {
            _refusedSendFlags = conflate ? (int)SendFlags.SendMore : 0;
        }
    }

    /// <summary>The last endpoint bound or connected, with the real port after binding <c>tcp://host:*</c>.</summary>
    public string LastEndpoint => GetOption<string>(SocketOption.LastEndpoint);

    /// <summary>Whether more frames of the message being received follow (<see cref="SocketOption.ReceiveMore"/>).</summary>
    public bool HasMore => ReadInt32(SocketOption.ReceiveMore) != 0;

    /// <summary>The socket's current readiness (<see cref="SocketOption.Events"/>).</summary>
    /// <remarks>Reading it can consume the edge of <see cref="SocketOption.FileDescriptor"/>; re-check before waiting on that descriptor.</remarks>
    public PollEvents Events => (PollEvents)ReadInt32(SocketOption.Events);

    /// <summary>Accepts connections on <paramref name="endpoint"/> (<c>zmq_bind</c>), e.g. <c>tcp://127.0.0.1:*</c>, <c>ipc:///tmp/feed</c>, <c>inproc://name</c>.</summary>
    /// <exception cref="ArgumentException">The endpoint is null or empty.</exception>
    /// <exception cref="ZmqException">EINVAL (malformed), EPROTONOSUPPORT (unknown transport), EADDRINUSE, EADDRNOTAVAIL, ENOCOMPATPROTO, ...</exception>
    public void Bind(string endpoint) => EndpointCall(endpoint, EndpointAction.Bind);

    /// <summary>Connects to <paramref name="endpoint"/> (<c>zmq_connect</c>); the connection is made in the background and retried.</summary>
    /// <exception cref="ArgumentException">The endpoint is null or empty.</exception>
    /// <exception cref="ZmqException">EINVAL (malformed), EPROTONOSUPPORT (unknown transport), ENOCOMPATPROTO, ...</exception>
    public void Connect(string endpoint) => EndpointCall(endpoint, EndpointAction.Connect);

    /// <summary>Stops accepting on an endpoint bound earlier (<c>zmq_unbind</c>); use the resolved <see cref="LastEndpoint"/> after a wildcard bind.</summary>
    /// <exception cref="ZmqException">ENOENT: the endpoint was not bound.</exception>
    public void Unbind(string endpoint) => EndpointCall(endpoint, EndpointAction.Unbind);

    /// <summary>Disconnects from an endpoint connected earlier (<c>zmq_disconnect</c>).</summary>
    /// <exception cref="ZmqException">ENOENT: the endpoint was not connected.</exception>
    public void Disconnect(string endpoint) => EndpointCall(endpoint, EndpointAction.Disconnect);

    /// <summary>Subscribes a SUB/XSUB socket to messages starting with <paramref name="prefix"/> (empty: everything).</summary>
    /// <remarks>
    /// <para>
    /// <b>Subscriptions beyond the send high-water mark are dropped silently.</b> libzmq sends each subscription to the
    /// publishers through the socket's outgoing pipe, bounded by <see cref="SocketOption.SendHighWatermark"/> (1,000 by
    /// default). When that pipe is full the subscription is discarded: this call still succeeds, no monitor event is
    /// raised, and the publisher never sends that topic. 10,000 calls reached an XPUB as 1,000 (999 when made after the
    /// connection was up); with <c>SendHighWatermark</c> 0 all 10,000 arrived (<c>Patterns/SubscriptionHighWatermarkTests</c>).
    /// A full pipe reopens only once the socket is used again (a receive, a poll, <see cref="SocketOption.Events"/>).
    /// </para>
    /// <para>
    /// A SUB that subscribes to many topics should set <c>SendHighWatermark</c> to 0 (no limit) or above its number of
    /// subscriptions before connecting. <see cref="Unsubscribe(ReadOnlySpan{byte})"/> travels the same pipe.
    /// </para>
    /// </remarks>
    public void Subscribe(ReadOnlySpan<byte> prefix) => SetOption(SocketOption.Subscribe, prefix);

    /// <summary>Subscribes a SUB/XSUB socket to messages starting with the UTF-8 bytes of <paramref name="prefix"/> ("" : everything).</summary>
    /// <remarks>
    /// Subscriptions beyond the socket's <see cref="SocketOption.SendHighWatermark"/> (1,000 by default) are dropped
    /// silently on their way to the publisher; set it to 0 on a SUB that subscribes to many topics. See
    /// <see cref="Subscribe(ReadOnlySpan{byte})"/>.
    /// </remarks>
    public void Subscribe(string prefix) => SetOption(SocketOption.Subscribe, prefix);

    /// <summary>Removes a subscription made with the same prefix.</summary>
    public void Unsubscribe(ReadOnlySpan<byte> prefix) => SetOption(SocketOption.Unsubscribe, prefix);

    /// <summary>Removes a subscription made with the same prefix.</summary>
    public void Unsubscribe(string prefix) => SetOption(SocketOption.Unsubscribe, prefix);

    /// <summary>Closes the socket (<c>zmq_close</c>). Unsent messages linger in the background for <see cref="SocketOption.Linger"/>. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;

        // EndCall clears _caller and then reads _disposed without a fence of its own;
        // after this barrier either that call's exit is visible to CloseIfIdle here, or the exiting call sees _disposed
        // and closes.
        // The async driver's creation, which checks _disposed after publishing, pairs with it the same way.
        Interlocked.MemoryBarrierProcessWide();
        CloseIfIdle();
    }

    /// <summary>
    /// Closes the socket as <see cref="Dispose"/> does, for <c>await using</c>. Closing never blocks (libzmq hands
    /// unsent messages to its I/O threads for the linger), so this completes at once.
    /// </summary>
    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    /// <inheritdoc />
    public override string ToString() => IsDisposed ? $"{Type} socket (disposed)" : $"{Type} socket";

    /// <summary>
    /// Begins a call on the native socket (see <see cref="SocketCall"/>): claims the socket for the calling thread and,
    /// once the socket is in async use, takes the async driver's gate.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on it (thread-safe draft sockets excepted).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal SocketCall BeginCall()
    {
        int thread = CallingThread.Id;
        int caller = IsDraft ? thread : Interlocked.CompareExchange(ref _caller, thread, 0);
        if (caller != 0 || _disposed)
        {
            return BeginSharedNestedOrFailedCall(thread, caller);
        }

        Volatile.Read(ref _async)?.EnterSync();
        return new SocketCall(this, _native);
    }

    /// <summary>Ends a call begun by <see cref="BeginCall"/>; closes the native socket if it was disposed meanwhile.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void EndCall()
    {
        Volatile.Read(ref _async)?.ExitSync();
        if (IsDraft)
        {
            _handle.EndLease();
        }
        else if (_nestedCalls != 0)
        {
            _nestedCalls--;
        }
        else
        {
            GiveBackClaim();
        }
    }

    /// <summary>Gives back the compare-and-swap claim; closes the native socket if it was disposed meanwhile.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void GiveBackClaim()
    {
        Volatile.Write(ref _caller, 0);
        if (_disposed || _asyncJoining)
        {
            EndCallSlow();
        }
    }

    /// <summary>True while no call is inside libzmq on the socket but, perhaps, one by <paramref name="thread"/>.</summary>
    private bool NoCallInFlight(int thread)
    {
        int caller = Volatile.Read(ref _caller);
        return caller == 0 || caller == Closed || caller == thread;
    }

    // As Dispose does, CreateAsyncDriver publishes then issues a process-wide barrier before reading _caller, so the unfenced write-then-read of EndCall and GiveBackClaim cannot miss it: either it sees this
    // call has ended, or this call sees its flag.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EndCallSlow()
    {
        // Not while another call is in flight (the claim of a call this one was nested in): that call releases it.
        if (_asyncJoining && Volatile.Read(ref _async) is { } driver && NoCallInFlight(0))
        {
            ReleaseEarlierCall(driver);
        }

        if (_disposed)
        {
            CloseIfIdle();
        }
    }

    private void ReleaseEarlierCall(SocketAsyncDriver driver)
    {
        if (driver.ReleaseEarlierCall())
        {
            _asyncJoining = false;
        }
    }

    private SocketCall BeginSharedNestedOrFailedCall(int thread, int caller)
    {
        if (caller == 0)
        {
            if (_disposed)
            {
                // Claimed, but Dispose had begun: give the claim back (closing if this was the call it waited for).
                GiveBackClaim();
                ThrowHelper.ThrowObjectDisposed(this);
            }
            Volatile.Read(ref _async)?.EnterSync();
            return new SocketCall(this, _native);
        }

        if (_disposed || caller == Closed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }

        if (IsDraft)
        {
            return new SocketCall(this, _handle.Lease(this));
        }

        if (caller != thread)
        {
            ThrowHelper.ThrowConcurrentUse(this, caller);
        }

        _nestedCalls++;
        Volatile.Read(ref _async)?.EnterSync();
        return new SocketCall(this, _native);
    }

    /// <summary>Closes the native socket unless a call is in flight, in which case that call's EndCall does. Once only.</summary>
    private void CloseIfIdle()
    {
        if (Interlocked.CompareExchange(ref _caller, Closed, 0) != 0)
        {
            return;
        }

        Volatile.Read(ref _async)?.Dispose();
        if (Volatile.Read(ref _asyncCollector) is { } collector)
        {
            GC.SuppressFinalize(collector);
        }

        _handle.Dispose(); // waits for the last lease (Poller, proxy, async pump) before zmq_close
    }

    /// <summary>
    /// Leases the native socket for a <see cref="Poller"/> entry or a running <see cref="Proxy"/> (<paramref name="holder"/>),
    /// until <see cref="ReleaseHold"/>. Never takes the async gate: a socket used asynchronously is refused instead,
    /// and while the lease is held the asynchronous methods are refused.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been used with the asynchronous methods.</exception>
    internal nint HoldForPolling(string holder)
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }

        lock (SocketAsyncDriver.CreationLock)
        {
            if (Volatile.Read(ref _async) is not null)
            {
                ThrowHelper.ThrowInvalidOperation(
                    $"This {Type} socket has been used with SendAsync/RecvAsync and cannot be given to {holder}: a socket used " +
                    "with SendAsync/RecvAsync is driven by Net.Zmq's reactor; poll a socket you use synchronously only, or keep " +
                    "using the async API (await several sockets with Task.WhenAny or one receive loop each).");
            }

            nint socket = _handle.Lease(this);
            _holders++;
            return socket;
        }
    }

    /// <summary>Gives back a lease taken by <see cref="HoldForPolling"/>.</summary>
    internal void ReleaseHold()
    {
        lock (SocketAsyncDriver.CreationLock)
        {
            _holders--;
        }

        _handle.EndLease();
    }

    /// <summary>Throws when a Poller or a proxy holds the socket; called, under the creation lock, before the async state is created.</summary>
    internal void ThrowIfHeldForPolling()
    {
        if (_holders != 0)
        {
            ThrowHelper.ThrowInvalidOperation(
                $"This {Type} socket is held by a Poller or a running Proxy, which drive it outside Net.Zmq's reactor, so " +
                "SendAsync/RecvAsync cannot be used on it now. Remove it from the Poller (or dispose the Poller, or stop the " +
                "proxy) first, or use the synchronous calls while it is polled.");
        }
    }

    private static bool IsDraftType(SocketType type) => type >= SocketType.Server;

    private enum EndpointAction { Bind, Connect, Unbind, Disconnect }

    private unsafe void EndpointCall(string endpoint, EndpointAction action)
    {
        ArgumentException.ThrowIfNullOrEmpty(endpoint);
        using var text = new Utf8Z(endpoint);
        using SocketCall call = BeginCall();
        fixed (byte* p = text.Bytes)
        {
            int rc = action switch
            {
                EndpointAction.Bind => LibZmq.Bind(call.Native, p),
                EndpointAction.Connect => LibZmq.Connect(call.Native, p),
                EndpointAction.Unbind => LibZmq.Unbind(call.Native, p),
                _ => LibZmq.Disconnect(call.Native, p),
            };
            if (rc != 0)
            {
                ThrowHelper.ThrowZmq(LibZmq.Errno(), $"{action} of the {Type} socket to '{endpoint}'");
            }
        }
    }
}
