using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// One libzmq message frame (<c>zmq_msg_t</c>), for sending without a copy and receiving without an allocation.
/// Reuse one instance across <see cref="Socket.Recv(Message, RecvFlags)"/> calls; dispose it when done.
/// </summary>
/// <remarks>
/// The <c>zmq_msg_t</c> lives inside this object. Who created the message decides who releases it:
/// <list type="bullet">
/// <item>A message you create (<c>new Message(...)</c>) is yours: dispose it (<c>using</c>). It has no finalizer, so
/// creating one costs no more than the object; one you drop keeps its frame until the process ends. Its
/// <see cref="Data"/> is a span over the frame's bytes (libzmq's memory for large frames; for small ones, which libzmq
/// keeps inline, a GC-tracked span into this object), valid until the next receive, send, <see cref="Copy"/>,
/// <see cref="Move"/>, <see cref="Rebuild()"/> or <see cref="Dispose"/> on this message.</item>
/// <item>A message the library creates for you (<see cref="Socket.Recv()"/>, the frames of
/// <see cref="Socket.RecvMultipart()"/>) is yours to dispose too, but one you drop is released once the GC finds it
/// unreachable, and the GC is told the size of its native frame, so dropped frames cannot pile up unseen. Its
/// <see cref="Data"/> is memory the GC owns (a copy of a frame larger than libzmq's inline size, made on first use), so a
/// span from it stays readable however long you keep it: <c>Span&lt;byte&gt; d = socket.Recv().Data;</c> is safe.</item>
/// </list>
/// docs/getting-started.md explains the choice and its costs.
/// </remarks>
public sealed unsafe partial class Message : IDisposable
{
    private ZmqMsg _msg;
    private bool _disposed;

    // Non-null only on a message the library created for the caller (Message.Guard.cs): it releases the message if the
    // caller drops it, and holds the GC-owned copy that Data hands out.
    private Guard? _guard;

    // Set once a send took the content (libzmq leaves the message empty); cleared when the message is filled again.
    private bool _sent;

    // Which libzmq call has _msg: none (Free), one (InCall: a send or receive on any thread, or an asynchronous
    // operation's call on the reactor thread), or none ever again (Closed). A call takes it with one compare-and-swap, so
    // a second thread's call on the same message is refused instead of racing libzmq (a double free). A Dispose that
    // meets a call leaves the close to the call's end (CloseDeferred), so libzmq never sees a closed message.
    private const int Free = 0, InCall = 1, CloseDeferred = 2, Closed = 3;
    private int _asyncUse;

    /// <summary>Creates an empty message, ready to receive into.</summary>
    public Message()
    {
        NativeLibraryLoader.EnsureLoaded();
        fixed (ZmqMsg* msg = &_msg)
        {
            _ = LibZmq.MsgInit(msg); // cannot fail
        }
    }

    /// <summary>Creates a message of <paramref name="size"/> uninitialised bytes to fill through <see cref="Data"/> (<c>zmq_msg_init_size</c>).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    /// <exception cref="ZmqException">ENOMEM.</exception>
    public Message(int size)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        NativeLibraryLoader.EnsureLoaded();
        fixed (ZmqMsg* msg = &_msg)
        {
            if (LibZmq.MsgInitSize(msg, (nuint)size) != 0)
            {
                int errorNumber = LibZmq.Errno();
                _disposed = true;
                ThrowHelper.ThrowZmq(errorNumber, $"Allocating a {size}-byte message");
            }
        }
    }

    /// <summary>Creates a message holding a copy of <paramref name="data"/>.</summary>
    public Message(ReadOnlySpan<byte> data)
        : this(data.Length) => data.CopyTo(Data);

    /// <summary>Creates a message holding the UTF-8 bytes of <paramref name="text"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public Message(string text)
        : this(Encoding.UTF8.GetByteCount(text ?? throw new ArgumentNullException(nameof(text))))
        => Encoding.UTF8.GetBytes(text, Data);

    /// <summary>
    /// Creates a message over <paramref name="size"/> bytes of native memory at <paramref name="data"/> without copying
    /// them (<c>zmq_msg_init_data</c>). Ownership passes to libzmq, which calls <paramref name="free"/> exactly once,
    /// with <paramref name="data"/>, on one of its own threads, when it no longer needs the bytes — after the send
    /// completes, or when this message is disposed unsent. <paramref name="free"/> must be quick and must not throw.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="free"/> is null, or <paramref name="data"/> is zero with a non-zero size.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public Message(nint data, int size, Action<nint> free)
    {
        ArgumentNullException.ThrowIfNull(free);
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        if (data == 0 && size != 0)
        {
            throw new ArgumentNullException(nameof(data), "A null pointer cannot hold a non-empty message.");
        }

        NativeLibraryLoader.EnsureLoaded();
        nint hint = FreeCallbackTable.Register(free);
        fixed (ZmqMsg* msg = &_msg)
        {
            if (LibZmq.MsgInitData(msg, (void*)data, (nuint)size, FreeCallbackTable.FreeFunction, hint) != 0)
            {
                int errorNumber = LibZmq.Errno();
                FreeCallbackTable.Unregister(hint);
                _disposed = true;
                ThrowHelper.ThrowZmq(errorNumber, "Creating a zero-copy message");
            }
        }
    }

    /// <summary>The frame's bytes, writable. Valid until the message is next received into, sent, moved, copied into or disposed.</summary>
    /// <remarks>
    /// <b>Warning: on a message you created, the bytes behind <see cref="Message.Data"/> belong to libzmq.</b> A span
    /// read after the message is next received into, sent, moved, copied into or disposed points at memory that may
    /// already be freed: reading it is undefined behaviour (an access violation that ends the process, or another
    /// message's bytes), even though the code compiles as safe C#. Consume the bytes before the next call, or keep a
    /// copy: <c>message.ToArray()</c> or <c>message.Data.ToArray()</c>. Never store the span, or a pointer taken from it,
    /// beyond that point. On a message the library created for you (<see cref="Socket.Recv()"/>,
    /// <see cref="Socket.RecvMultipart()"/>) the span is over memory the GC owns and stays readable; writes to it are
    /// sent if the message is sent.
    /// <code>
    /// using var message = new Message();
    /// socket.Recv(message);
    /// Process(message.Data);              // consumed before the next receive: fine
    /// byte[] kept = message.ToArray();    // a copy, valid forever
    /// socket.Recv(message);               // from here on, spans read from message.Data earlier are invalid
    /// </code>
    /// </remarks>
    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    public Span<byte> Data
    {
        get
        {
            ThrowIfDisposed();
            Span<byte> frame = Frame(out bool inline);
            return _guard is null || inline ? frame : _guard.ManagedCopy(frame);
        }
    }

    /// <summary>
    /// The frame's bytes where libzmq keeps them: for a small frame (libzmq keeps up to 33 bytes inside the
    /// <c>zmq_msg_t</c>) a GC-tracked span into this object, so it stays valid when the GC moves the object; for a
    /// larger one, libzmq's memory.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Frame(out bool inline)
    {
        fixed (ZmqMsg* msg = &_msg)
        {
            byte* data = LibZmq.MsgData(msg);
            int size = (int)LibZmq.MsgSize(msg);
            nint offset = (nint)(data - (byte*)msg);
            inline = (nuint)offset < ZmqMsg.Size;
            return inline
                ? MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Unsafe.As<ZmqMsg, byte>(ref _msg), offset), size)
                : new Span<byte>(data, size);
        }
    }

    /// <summary>The bytes as <see cref="Data"/> shows them, without making a copy that nobody keeps.</summary>
    private ReadOnlySpan<byte> CurrentBytes()
    {
        ThrowIfDisposed();
        return _guard?.Bytes ?? Frame(out _);
    }

    /// <summary>The frame's size in bytes.</summary>
    public int Size
    {
        get
        {
            ThrowIfDisposed();
            fixed (ZmqMsg* msg = &_msg)
            {
                return (int)LibZmq.MsgSize(msg);
            }
        }
    }

    /// <summary>Whether more frames of the same message follow this received frame.</summary>
    public bool More
    {
        get
        {
            ThrowIfDisposed();
            fixed (ZmqMsg* msg = &_msg)
            {
                return LibZmq.MsgMore(msg) != 0;
            }
        }
    }

    /// <summary>
    /// Draft: the routing id of the peer a <see cref="SocketType.Server"/> or <see cref="SocketType.Peer"/> received this
    /// message from, or to send it to (<c>zmq_msg_routing_id</c>, <c>zmq_msg_set_routing_id</c>); 0 when none is set.
    /// Sending the message clears it; a <see cref="SocketType.Client"/> ignores it.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to 0: libzmq has no "no routing id" to set.</exception>
    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq has no draft API (<c>Context.Has("draft")</c> is false).</exception>
    public uint RoutingId
    {
        get
        {
            ThrowIfDisposed();
            delegate* unmanaged<ZmqMsg*, uint> get = LibZmqDraft.MsgRoutingId;
            if (get is null)
            {
                ThrowHelper.ThrowDraftMissing("Message.RoutingId");
            }

            fixed (ZmqMsg* msg = &_msg)
            {
                return get(msg);
            }
        }

        set
        {
            ThrowIfDisposed();
            if (value == 0)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), value, "A routing id is never 0; libzmq refuses to set it.");
            }

            delegate* unmanaged<ZmqMsg*, uint, int> set = LibZmqDraft.MsgSetRoutingId;
            if (set is null)
            {
                ThrowHelper.ThrowDraftMissing("Message.RoutingId");
            }

            fixed (ZmqMsg* msg = &_msg)
            {
                if (set(msg, value) != 0)
                {
                    ThrowHelper.ThrowZmq(LibZmq.Errno(), "Setting a message's routing id");
                }
            }
        }
    }

    /// <summary>
    /// Draft: the group a <see cref="SocketType.Radio"/> sends this message to, or that a <see cref="SocketType.Dish"/>
    /// received it in (<c>zmq_msg_group</c>, <c>zmq_msg_set_group</c>); "" when none is set. A group name is 1 to
    /// <see cref="GroupMaxLength"/> UTF-8 bytes without a NUL character.
    /// </summary>
    /// <exception cref="ArgumentException">Set to null, "", a name longer than <see cref="GroupMaxLength"/> UTF-8 bytes, or one with a NUL.</exception>
    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq has no draft API (<c>Context.Has("draft")</c> is false).</exception>
    /// <exception cref="ZmqException">EINVAL from an older libzmq whose groups are shorter (15 bytes before 4.3 took long groups).</exception>
    public string Group
    {
        get
        {
            ThrowIfDisposed();
            delegate* unmanaged<ZmqMsg*, byte*> get = LibZmqDraft.MsgGroup;
            if (get is null)
            {
                ThrowHelper.ThrowDraftMissing("Message.Group");
            }

            fixed (ZmqMsg* msg = &_msg)
            {
                byte* group = get(msg);
                return group is null ? "" : Marshal.PtrToStringUTF8((nint)group) ?? "";
            }
        }

        set
        {
            ThrowIfDisposed();
            ValidateGroup(value, nameof(value));
            delegate* unmanaged<ZmqMsg*, byte*, int> set = LibZmqDraft.MsgSetGroup;
            if (set is null)
            {
                ThrowHelper.ThrowDraftMissing("Message.Group");
            }

            using var text = new Utf8Z(value);
            fixed (byte* p = text.Bytes)
            fixed (ZmqMsg* msg = &_msg)
            {
                if (set(msg, p) != 0)
                {
                    ThrowHelper.ThrowZmq(LibZmq.Errno(), $"Setting a message's group to '{value}'");
                }
            }
        }
    }

    /// <summary>The longest group name, in UTF-8 bytes, that libzmq 4.3 takes (<c>ZMQ_GROUP_MAX_LENGTH</c>).</summary>
    public const int GroupMaxLength = 255;

    /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
    public bool IsDisposed => _disposed;

    /// <summary>Checks a group name before it reaches libzmq, which would silently cut a longer one at 255 bytes.</summary>
    internal static void ValidateGroup(string group, string paramName)
    {
        ArgumentException.ThrowIfNullOrEmpty(group, paramName);
        int bytes = Encoding.UTF8.GetByteCount(group);
        if (bytes > GroupMaxLength)
        {
            ThrowHelper.ThrowArgument(
                $"A group name is at most {GroupMaxLength} UTF-8 bytes (ZMQ_GROUP_MAX_LENGTH); '{group[..16]}...' has {bytes}.", paramName);
        }

        if (group.Contains('\0', StringComparison.Ordinal))
        {
            ThrowHelper.ThrowArgument("A group name cannot hold a NUL character: libzmq reads it as a C string.", paramName);
        }
    }

    internal ref ZmqMsg Native => ref _msg;

    /// <summary>Makes this message share the content of <paramref name="source"/> (<c>zmq_msg_copy</c>: reference-counted, no byte copy).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">Either message was disposed.</exception>
    public void Copy(Message source) => Transfer(source, move: false);

    /// <summary>Moves the content of <paramref name="source"/> into this message (<c>zmq_msg_move</c>); <paramref name="source"/> becomes empty.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">Either message was disposed.</exception>
    public void Move(Message source) => Transfer(source, move: true);

    /// <summary>Re-initialises the message as an empty one (<c>zmq_msg_close</c> then <c>zmq_msg_init</c>), releasing what it held.</summary>
    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    public void Rebuild() => Reinitialise(0, sized: false);

    /// <summary>Re-initialises the message with <paramref name="size"/> fresh, uninitialised bytes to fill through <see cref="Data"/> (<c>zmq_msg_init_size</c>), releasing what it held.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    /// <exception cref="ZmqException">ENOMEM; the message is then left empty.</exception>
    public void Rebuild(int size)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        Reinitialise(size, sized: true);
    }

    private void Reinitialise(int size, bool sized)
    {
        ThrowIfDisposed();

        // Claimed as a send or receive claims it, so that no other call meets it half rebuilt.
        EnterCall();

        int errorNumber = 0;
        fixed (ZmqMsg* msg = &_msg)
        {
            _ = LibZmq.MsgClose(msg); // cannot fail on an initialised message
            if (sized && LibZmq.MsgInitSize(msg, (nuint)size) != 0)
            {
                errorNumber = LibZmq.Errno();
                sized = false;
            }

            if (!sized)
            {
                _ = LibZmq.MsgInit(msg); // cannot fail
            }
        }

        MarkFilled();
        ExitCall();
        if (errorNumber != 0)
        {
            ThrowHelper.ThrowZmq(errorNumber, $"Allocating a {size}-byte message");
        }
    }

    /// <summary>
    /// Reads a metadata property of a received frame (<c>zmq_msg_gets</c>): "Socket-Type", "Routing-Id" (the routing id
    /// the peer set, if any), "Peer-Address", "User-Id" (set by ZAP), or one a ZAP handler added. Returns null when the
    /// frame has no such property.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="property"/> is null or empty.</exception>
    public string? GetMetadata(string property)
    {
        ArgumentException.ThrowIfNullOrEmpty(property);
        ThrowIfDisposed();
        string? value = Gets(property);
        // libzmq 4.3 stores the peer's routing id under its ZMTP name, "Identity".
        return value is null && property.Equals("Routing-Id", StringComparison.OrdinalIgnoreCase) ? Gets("Identity") : value;
    }

    private string? Gets(string property)
    {
        using var name = new Utf8Z(property);
        fixed (byte* p = name.Bytes)
        fixed (ZmqMsg* msg = &_msg)
        {
            byte* value = LibZmq.MsgGets(msg, p);
            return value is null ? null : Marshal.PtrToStringUTF8((nint)value);
        }
    }

    /// <summary>Returns a copy of the frame's bytes.</summary>
    public byte[] ToArray()
    {
        byte[] copy = CurrentBytes().ToArray();
        GC.KeepAlive(this); // no guard may free the bytes while they are copied (socket.Recv().ToArray())
        return copy;
    }

    /// <summary>Decodes the frame's bytes as UTF-8.</summary>
    public override string ToString()
    {
        if (_disposed)
        {
            return "(disposed message)";
        }

        string text = Encoding.UTF8.GetString(CurrentBytes());
        GC.KeepAlive(this);
        return text;
    }

    /// <summary>Releases the frame (<c>zmq_msg_close</c>), including after it was sent. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        Close();
        _guard?.Dispose();
    }

    internal void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }
    }

    /// <summary>Whether a send took this message's content and nothing filled it since.</summary>
    internal bool WasSent => _sent;

    /// <summary>Refuses a message that was disposed, or sent and not filled again: resending it would send an empty frame.</summary>
    /// <remarks>
    /// On a message the library created, it also puts what the caller wrote into <see cref="Data"/>'s copy back into
    /// the frame, so that the send carries it.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void ThrowIfNotSendable()
    {
        if (_disposed | _sent || _guard is not null)
        {
            PrepareGuardedOrThrow();
        }
    }

    /// <summary>Records that libzmq took the content: sending it again is refused until it is filled again.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void MarkSent()
    {
        _sent = true;
        _guard?.ContentChanged();
    }

    /// <summary>Records that the message holds content again (received into, rebuilt, copied or moved into).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void MarkFilled()
    {
        _sent = false;
        _guard?.ContentChanged();
    }

    private void PrepareGuardedOrThrow()
    {
        if (!(_disposed | _sent))
        {
            WriteBackCopy();
            return;
        }

        ThrowIfDisposed();
        ThrowHelper.ThrowInvalidOperation(
            "This Message was sent already: libzmq took its content and left it empty, so sending it again would send an " +
            "empty frame. Create a new Message for each send, or fill this one again first (receive into it, Rebuild it, " +
            "or Copy another message into it).");
    }

    /// <summary>Puts what the caller wrote into the GC-owned copy <see cref="Data"/> handed out back into the frame, before libzmq sends, shares or moves it.</summary>
    private void WriteBackCopy()
    {
        if (_guard?.Bytes is not null)
        {
            _guard.WriteBack(Frame(out _));
        }
    }

    private void Transfer(Message source, bool move)
    {
        ArgumentNullException.ThrowIfNull(source);
        ThrowIfDisposed();
        source.ThrowIfDisposed();
        if (ReferenceEquals(source, this))
        {
            return;
        }

        source.WriteBackCopy();
        fixed (ZmqMsg* destination = &_msg)
        fixed (ZmqMsg* from = &source._msg)
        {
            int rc = move ? LibZmq.MsgMove(destination, from) : LibZmq.MsgCopy(destination, from);
            if (rc != 0)
            {
                int errorNumber = LibZmq.Errno();
                ThrowHelper.ThrowZmq(errorNumber, move ? "Moving a message" : "Copying a message");
            }
        }

        _sent = source._sent;
        _guard?.ContentChanged();
        if (move)
        {
            source._guard?.ContentChanged();
        }
    }

    /// <summary>
    /// Claims the message for one libzmq call (a send or receive, or an asynchronous operation's call); false once it
    /// was disposed or while another call has it. A Dispose meanwhile only marks it, and <see cref="ExitCall"/> closes it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool TryEnterCall() => Interlocked.CompareExchange(ref _asyncUse, InCall, Free) == Free;

    /// <summary><see cref="TryEnterCall"/> for a caller that cannot wait.</summary>
    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another call (on another thread, or an asynchronous send or receive) is using the message.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void EnterCall()
    {
        if (!TryEnterCall())
        {
            ThrowInUse();
        }
    }

    /// <summary>Ends a call claimed by <see cref="TryEnterCall"/>; closes the message if it was disposed during the call.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void ExitCall()
    {
        int prior = Interlocked.CompareExchange(ref _asyncUse, Free, InCall);
        Debug.Assert(prior is InCall or CloseDeferred, "a message call ends only once");
        if (prior != InCall)
        {
            Volatile.Write(ref _asyncUse, Closed);
            CloseNative();
        }
    }

    /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
    /// <exception cref="InvalidOperationException">Always otherwise: another call is using it.</exception>
    internal void ThrowInUse()
    {
        ThrowIfDisposed();
        ThrowHelper.ThrowInvalidOperation(
            "This Message is in use by another call: another thread's send or receive, or an asynchronous send or receive " +
            "that has not completed. A Message is used by one thread at a time; give each thread (and each pending " +
            "operation) its own Message.");
    }

    private void Close()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        while (true)
        {
            int prior = Interlocked.CompareExchange(ref _asyncUse, Closed, Free);
            if (prior == Free)
            {
                CloseNative();
                return;
            }

            Debug.Assert(prior is InCall or CloseDeferred or Closed, "a message's call word has four states");
            if (prior != InCall || Interlocked.CompareExchange(ref _asyncUse, CloseDeferred, InCall) == InCall)
            {
                return; // a call (a send or receive, sync or async) is inside libzmq with it: that call closes it on its way out
            }
        }
    }

    private void CloseNative()
    {
        fixed (ZmqMsg* msg = &_msg)
        {
            _ = LibZmq.MsgClose(msg); // cannot fail on a message this object initialised
        }
    }
}
