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
/// The <c>zmq_msg_t</c> lives inside this object. <see cref="Data"/> is a span over the frame's bytes: libzmq's
/// memory for large frames, and for small frames (libzmq keeps up to 33 bytes inline) a span tracked by the GC
/// into this object, so it stays valid when the GC moves the object. A span is valid until the next receive,
/// send, <see cref="Copy"/>, <see cref="Move"/> or <see cref="Dispose"/> on this message.
/// <para>
/// Always dispose a message (<c>using</c>). It has no finalizer, on purpose: a finalizable object takes the
/// runtime's slow allocation path, which would add tens of nanoseconds to every message. A message that is never
/// disposed leaks the native bytes of a frame over 33 bytes, and a zero-copy message that is neither sent nor
/// disposed never calls its free callback.
/// </para>
/// </remarks>
public sealed unsafe class Message : IDisposable
{
    private ZmqMsg _msg;
    private bool _disposed;

    /// <summary>Creates an empty message, ready to receive into.</summary>
    public Message()
    {
        NativeLibraryLoader.EnsureLoaded();
        fixed (ZmqMsg* msg = &_msg)
        {
            LibZmq.MsgInit(msg);
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
    /// <b>Warning: the bytes behind <see cref="Message.Data"/> belong to libzmq.</b> A span read after the message is
    /// next received into, sent, moved, copied into or disposed points at memory that may already be freed: reading
    /// it is undefined behaviour (an access violation that ends the process, or another message's bytes), even though
    /// the code compiles as safe C#. Consume the bytes before the next call, or keep a copy: <c>message.ToArray()</c>
    /// or <c>message.Data.ToArray()</c>. Never store the span, or a pointer taken from it, beyond that point.
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
            fixed (ZmqMsg* msg = &_msg)
            {
                byte* data = LibZmq.MsgData(msg);
                int size = (int)LibZmq.MsgSize(msg);
                nint offset = (nint)(data - (byte*)msg);
                if ((nuint)offset < ZmqMsg.Size)
                {
                    // Small frames live inside the zmq_msg_t: hand out a GC-tracked span into this object.
                    return MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Unsafe.As<ZmqMsg, byte>(ref _msg), offset), size);
                }

                return new Span<byte>(data, size);
            }
        }
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

    /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
    public bool IsDisposed => _disposed;

    internal ref ZmqMsg Native => ref _msg;

    /// <summary>Makes this message share the content of <paramref name="source"/> (<c>zmq_msg_copy</c>: reference-counted, no byte copy).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">Either message was disposed.</exception>
    public void Copy(Message source) => Transfer(source, move: false);

    /// <summary>Moves the content of <paramref name="source"/> into this message (<c>zmq_msg_move</c>); <paramref name="source"/> becomes empty.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">Either message was disposed.</exception>
    public void Move(Message source) => Transfer(source, move: true);

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
    public byte[] ToArray() => Data.ToArray();

    /// <summary>Decodes the frame's bytes as UTF-8.</summary>
    public override string ToString() => _disposed ? "(disposed message)" : Encoding.UTF8.GetString(Data);

    /// <summary>Releases the frame (<c>zmq_msg_close</c>), including after it was sent. Calling it again does nothing.</summary>
    public void Dispose() => Close();

    internal void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
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
    }

    private void Close()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        fixed (ZmqMsg* msg = &_msg)
        {
            LibZmq.MsgClose(msg);
        }
    }
}
