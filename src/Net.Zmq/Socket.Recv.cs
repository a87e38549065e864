using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Receives one frame into <paramref name="buffer"/> (<c>zmq_recv</c>).
    /// </summary>
    /// <returns>
    /// The frame's full size in bytes, or −1 only when <see cref="RecvFlags.DontWait"/> is set and no frame is waiting.
    /// <b>Truncation is reported, not hidden:</b> when the result is greater than <c>buffer.Length</c>, the first
    /// <c>buffer.Length</c> bytes were stored and the rest of the frame was discarded. Use
    /// <see cref="Recv(Message, RecvFlags)"/> when frames can be larger than any buffer you can offer.
    /// </returns>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    /// <exception cref="ZmqException">ENOTSUP (this socket type cannot receive), EFSM (out of turn), EAGAIN after ReceiveTimeout, ...</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public unsafe int Recv(Span<byte> buffer, RecvFlags flags = RecvFlags.None)
    {
        fixed (byte* p = buffer)
        {
            return RecvCore(p, buffer.Length, flags);
        }
    }

    /// <summary>Receives one frame into <paramref name="buffer"/>; the result is as for <see cref="Recv(Span{byte}, RecvFlags)"/> (frame size, possibly larger than the buffer; −1 only under DontWait).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Recv(byte[] buffer, RecvFlags flags = RecvFlags.None)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        return Recv(buffer.AsSpan(), flags);
    }

    /// <summary>Receives one frame into <paramref name="size"/> bytes of native memory at <paramref name="buffer"/>; the result is as for <see cref="Recv(Span{byte}, RecvFlags)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is zero while <paramref name="size"/> is not.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public unsafe int Recv(nint buffer, int size, RecvFlags flags = RecvFlags.None)
    {
        return RecvCore(NativeBuffer(buffer, size, "A null pointer cannot receive a frame."), size, flags);
    }

    /// <summary>
    /// Receives one frame into <paramref name="message"/> (<c>zmq_msg_recv</c>), releasing what it held before.
    /// Reuse one message across receives to avoid any allocation.
    /// </summary>
    /// <returns>True when a frame was received; false only under <see cref="RecvFlags.DontWait"/> when none is waiting.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <remarks><b>Warning: the bytes behind <see cref="Message.Data"/> belong to libzmq.</b> A span read after the message is
    /// next received into, sent, moved, copied into or disposed points at memory that may already be freed: reading
    /// it is undefined behaviour (an access violation that ends the process, or another message's bytes), even though
    /// the code compiles as safe C#. Consume the bytes before the next call, or keep a copy: <c>message.ToArray()</c>
    /// or <c>message.Data.ToArray()</c>. Never store the span, or a pointer taken from it, beyond that point.</remarks>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Recv(Message message, RecvFlags flags = RecvFlags.None) => ReceiveMessage(message, flags, NoDeadline);

    /// <summary>Receives one frame into a new <see cref="Message"/>, blocking until it arrives. The caller owns the message: dispose it.</summary>
    /// <remarks>
    /// The message is guarded, unlike one you create: dropped undisposed, it is released once the GC finds it
    /// unreachable, and the GC is told the size of its frame. Its <see cref="Message.Data"/> is memory the GC owns (a
    /// copy of a frame larger than libzmq's 33 inline bytes, made on first use), so <c>socket.Recv().Data</c> stays
    /// readable however long the span is kept. In a receive loop, receive into one reused message with
    /// <see cref="Recv(Message, RecvFlags)"/> (no allocation, no copy), or use <see cref="RecvBytes"/> for a copy you keep.
    /// </remarks>
    public Message Recv()
    {
        var message = Message.ForCaller();
        try
        {
            Recv(message);
            return message;
        }
        catch
        {
            message.Dispose();
            throw;
        }
    }

    /// <summary>Receives one frame as a new byte array, blocking until it arrives.</summary>
    public unsafe byte[] RecvBytes()
    {
        TryRecvCopy(out byte[]? data, RecvFlags.None, NoDeadline, &CopyBytes);
        return data!;
    }

    /// <summary>Receives one frame and decodes it as UTF-8, blocking until it arrives.</summary>
    public unsafe string RecvString()
    {
        TryRecvCopy(out string? text, RecvFlags.None, NoDeadline, &DecodeUtf8);
        return text!;
    }

    /// <summary>Receives one frame into <paramref name="buffer"/> without blocking.</summary>
    /// <param name="buffer">Where the frame's bytes go.</param>
    /// <param name="size">The frame's full size; greater than <c>buffer.Length</c> when it was truncated.</param>
    /// <returns>True when a frame was received; false when none was waiting.</returns>
    public bool TryRecv(Span<byte> buffer, out int size)
    {
        size = Recv(buffer, RecvFlags.DontWait);
        if (size < 0)
        {
            size = 0;
            return false;
        }

        return true;
    }

    /// <summary>Receives one frame into <paramref name="message"/> without blocking; false when none was waiting.</summary>
    public bool TryRecv(Message message) => Recv(message, RecvFlags.DontWait);

    /// <summary>Receives one frame as UTF-8 text without blocking; false (and null) when none was waiting.</summary>
    public unsafe bool TryRecvString([NotNullWhen(true)] out string? text) => TryRecvCopy(out text, RecvFlags.DontWait, NoDeadline, &DecodeUtf8);
}
