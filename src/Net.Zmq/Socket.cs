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
    // A bit of _refusedSendFlags no SendFlags value uses, which the send path tests whatever the flags (RefuseSends).
    private const int RefuseEverySend = 1 << 30;

    // Every concurrency fact about this socket: the claim, the holds, the async driver, who closes the native socket.
    private readonly SocketGate _gate;

    // SendFlags.SendMore on the draft sockets, which take single-part messages only, and on a socket with Conflate set
    // (a conflating queue keeps one frame, not one message: libzmq aborts the process when a conflating peer receives
    // a multipart message); 0 on the others. One field read and one test on the send path refuse a multipart send
    // before libzmq queues anything. RefuseEverySend is added when every send is to fail (RefuseSends).
    private int _refusedSendFlags;

    // Why every send fails once RefuseEverySend is set: the exception to throw (the context was shut down, or an Actor
    // whose pipe this is has stopped).
    private Func<Exception>? _sendRefusal;

    // Whether a Bind or Connect (or ConnectPeer) ever succeeded: from then on security options are refused (see
    // INativeOptions.Set), as libzmq applies them only to endpoints made after them.
    private volatile bool _boundOrConnected;

    // A Router set to raw mode (RouterRaw): like a Stream, it runs no security handshake, so security options are refused.
    private bool _routerRaw;

    // On a Router or Stream, under the claim: the ConnectRoutingId set for the next Connect that takes it (null when
    // none), and every routing id this socket's connects gave, in hex. libzmq aborts the process when a connect would give
    // a second pipe the same routing id: Connect checks first, with these where libzmq cannot say (a Stream, or no draft
    // API). An id stays after its Disconnect, as libzmq drops the pipe only later.
    private byte[]? _pendingConnectId;
    private HashSet<string>? _connectIds;

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

        _gate = new SocketGate(handle, type, isDraft);
        Context = context;
        Type = type;
        _refusedSendFlags = isDraft ? (int)SendFlags.SendMore : 0;
        context.Track(this);
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
    public bool IsDisposed => _gate.IsDisposed;

    /// <summary>Whether this is a draft socket: thread-safe, single-part only, without the <c>ZMQ_FD</c> async waits on.</summary>
    internal bool IsDraft => IsDraftType(Type);

    /// <summary>Whether <see cref="SocketOption.Conflate"/> was set on this socket, which then refuses multipart sends.</summary>
    internal bool IsConflating => !IsDraft && (_refusedSendFlags & (int)SendFlags.SendMore) != 0;

    /// <summary>Tracks <see cref="SocketOption.Conflate"/> after libzmq accepted it: set, the socket refuses <see cref="SendFlags.SendMore"/>.</summary>
    internal void ConflateChanged(bool conflate)
    {
        if (!IsDraft)
        {
            // Interlocked: RefuseSends may set its bit from another thread meanwhile.
            _ = conflate
                ? Interlocked.Or(ref _refusedSendFlags, (int)SendFlags.SendMore)
                : Interlocked.And(ref _refusedSendFlags, ~(int)SendFlags.SendMore);
        }
    }

    /// <summary>
    /// Makes every send from now on throw what <paramref name="refusal"/> creates, before libzmq is called: after
    /// <see cref="Context.Shutdown"/>, and on an <see cref="Actors.Actor"/>'s pipe once its handler has ended (where a
    /// send would wait forever). Any thread.
    /// </summary>
    internal void RefuseSends(Func<Exception> refusal)
    {
        Volatile.Write(ref _sendRefusal, refusal);
        Interlocked.Or(ref _refusedSendFlags, RefuseEverySend);
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
    /// <exception cref="InvalidOperationException">A Router or Stream whose <see cref="SocketOption.ConnectRoutingId"/> a peer of the socket has already (libzmq would abort the process).</exception>
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

    /// <summary>
    /// Closes the socket (<c>zmq_close</c>). Unsent messages linger in the background for <see cref="SocketOption.Linger"/>.
    /// A <see cref="Monitoring.SocketMonitor"/>'s monitoring of the socket stops first, so it reports nothing raised by the
    /// close. Calling it again does nothing.
    /// </summary>
    public void Dispose() => _gate.Dispose();

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

    /// <summary>The socket's gate: its claim, holds and async driver (see <see cref="SocketGate"/>).</summary>
    internal SocketGate Gate => _gate;

    private static bool IsDraftType(SocketType type) => type >= SocketType.Server;

    private enum EndpointAction { Bind, Connect, Unbind, Disconnect }

    private unsafe void EndpointCall(string endpoint, EndpointAction action)
    {
        ArgumentException.ThrowIfNullOrEmpty(endpoint);
        using var text = new Utf8Z(endpoint);
        using SocketCall call = BeginCall();
        byte[]? connectId = action == EndpointAction.Connect && _pendingConnectId is not null && ConnectTakesPendingId(endpoint)
            ? _pendingConnectId : null;
        if (connectId is not null)
        {
            RefuseTakenConnectId(call.Native, connectId);
        }

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
                ThrowHelper.ThrowEndpointFailed(LibZmq.Errno(), $"{action} of the {Type} socket to '{endpoint}'", endpoint);
            }

            if (action is EndpointAction.Bind or EndpointAction.Connect)
            {
                _boundOrConnected = true;
            }

            if (connectId is not null) // this connect's pipe took it
            {
                _pendingConnectId = null;
                (_connectIds ??= []).Add(Convert.ToHexString(connectId));
            }
        }
    }

    /// <summary>
    /// Whether this Connect gives its pipe the pending <see cref="SocketOption.ConnectRoutingId"/> (claim held): libzmq
    /// makes the pipe at the connect for inproc, and for the other transports unless Immediate is set; then the pipe
    /// comes with the connection, as a peer's, and the id stays pending.
    /// </summary>
    private bool ConnectTakesPendingId(string endpoint) =>
        endpoint.StartsWith("inproc://", StringComparison.Ordinal) || ReadInt32(SocketOption.Immediate) == 0;

    /// <summary>
    /// Before a Router's or Stream's Connect that gives its pipe a <see cref="SocketOption.ConnectRoutingId"/> (claim
    /// held): libzmq asserts that no pipe has that routing id yet, aborting the process. On a Router with the draft API,
    /// libzmq says whether a peer has the id (after reading Events has made it take in the peers that connected meanwhile:
    /// a peer still connecting in at the very moment of the Connect can slip through); otherwise the ids this socket's
    /// connects gave are refused.
    /// </summary>
    private unsafe void RefuseTakenConnectId(nint socket, byte[] id)
    {
        bool taken;
        if (Type == SocketType.Router && LibZmqDraft.SocketGetPeerState != null)
        {
            _ = ReadInt32(SocketOption.Events);
            fixed (byte* p = id)
            {
                taken = LibZmqDraft.SocketGetPeerState(socket, p, (nuint)id.Length) >= 0;
            }
        }
        else
        {
            taken = _connectIds?.Contains(Convert.ToHexString(id)) == true;
        }

        if (taken)
        {
            throw new InvalidOperationException(
                $"Routing id {Convert.ToHexString(id)} (ConnectRoutingId) is already a peer's on this {Type} socket, and libzmq " +
                "would abort the process on a second one: set another ConnectRoutingId before this Connect.");
        }
    }
}
