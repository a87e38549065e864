using System.Runtime.CompilerServices;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>Sends one frame copied from <paramref name="data"/> (<c>zmq_send</c>).</summary>
    /// <returns>True when queued; false only when <see cref="SendFlags.DontWait"/> is set and the frame cannot be queued now (EAGAIN).</returns>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    /// <exception cref="ArgumentException"><see cref="SendFlags.SendMore"/> on a draft socket (<see cref="SocketType.Server"/>, ...), which takes single-part messages only.</exception>
    /// <exception cref="ZmqException">ENOTSUP (this socket type cannot send), EFSM (out of turn), EHOSTUNREACH, EAGAIN after SendTimeout, ...</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public unsafe bool Send(ReadOnlySpan<byte> data, SendFlags flags = SendFlags.None)
    {
        fixed (byte* p = data)
        {
            return SendCore(p, data.Length, flags);
        }
    }

    /// <summary>Sends <paramref name="data"/> as one frame.</summary>
    /// <returns>True when queued; false only under <see cref="SendFlags.DontWait"/> when it cannot be queued now.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Send(byte[] data, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(data);
        return Send(data.AsSpan(), flags);
    }

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/> as one frame (no terminating zero).</summary>
    /// <returns>True when queued; false only under <see cref="SendFlags.DontWait"/> when it cannot be queued now.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public bool Send(string text, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(text);
        return SendText(text, flags, NoDeadline);
    }

    /// <summary>Sends <paramref name="size"/> bytes of native memory at <paramref name="data"/> as one frame (copied before return).</summary>
    /// <returns>True when queued; false only under <see cref="SendFlags.DontWait"/> when it cannot be queued now.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is zero while <paramref name="size"/> is not.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public unsafe bool Send(nint data, int size, SendFlags flags = SendFlags.None)
    {
        return SendCore(NativeBuffer(data, size, "A null pointer cannot hold a non-empty frame."), size, flags);
    }

    /// <summary>
    /// Sends <paramref name="message"/> as one frame (<c>zmq_msg_send</c>) without copying its bytes. On success the
    /// message is left empty (its content now belongs to libzmq); it can be reused, and must still be disposed.
    /// </summary>
    /// <returns>True when queued; false only under <see cref="SendFlags.DontWait"/> when it cannot be queued now (the message keeps its content).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    /// <exception cref="InvalidOperationException">The message was sent already and not filled again since (received into, rebuilt, copied into): it is empty.</exception>
    /// <exception cref="ArgumentException"><see cref="SendFlags.SendMore"/> on a draft socket, which takes single-part messages only.</exception>
    /// <exception cref="ZmqException">EHOSTUNREACH: a <see cref="SocketType.Server"/> or <see cref="SocketType.Peer"/> has no peer with the message's <see cref="Message.RoutingId"/>; and as for the other overloads.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Send(Message message, SendFlags flags = SendFlags.None) => SendMessage(message, flags, NoDeadline);
}
