using System.Diagnostics.CodeAnalysis;

namespace Net.Zmq;

/// <summary>
/// Sends and receives that wait at most a given time and report a timeout as <c>false</c>, never as an exception.
/// </summary>
/// <remarks>
/// Each call tries at once, then waits on the socket alone (<c>zmq_poll</c>) for the time that remains and tries again,
/// until it succeeds or the time is up. <see cref="TimeSpan.Zero"/> tries once; <see cref="Timeout.InfiniteTimeSpan"/>
/// waits as long as it takes. Nothing is lost on a timeout: a receive consumed nothing, a send queued nothing (a
/// <see cref="Message"/> keeps its content), and a multipart message either arrives whole or stays queued. The socket's
/// <see cref="SocketOption.ReceiveTimeout"/> and <see cref="SocketOption.SendTimeout"/> play no part. These calls
/// allocate nothing beyond what they return.
/// </remarks>
public sealed partial class Socket
{
    /// <summary>Receives one frame into <paramref name="buffer"/>, waiting at most <paramref name="timeout"/>.</summary>
    /// <param name="buffer">Where the frame's bytes go.</param>
    /// <param name="timeout">How long to wait: <see cref="TimeSpan.Zero"/> tries once, <see cref="Timeout.InfiniteTimeSpan"/> waits as long as it takes.</param>
    /// <param name="size">The frame's full size; greater than <c>buffer.Length</c> when it was truncated (as for <see cref="Recv(Span{byte}, RecvFlags)"/>).</param>
    /// <returns>True when a frame was received; false when none came in time.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TryRecv(Span<byte> buffer, TimeSpan timeout, out int size)
    {
        long deadline = Deadline(timeout);
        fixed (byte* p = buffer)
        {
            size = RecvCore(p, buffer.Length, RecvFlags.None, deadline);
        }

        if (size < 0)
        {
            size = 0;
            return false;
        }

        return true;
    }

    /// <summary>Receives one frame into <paramref name="message"/>, waiting at most <paramref name="timeout"/>; the message is untouched on a timeout.</summary>
    /// <returns>True when a frame was received; false when none came in time.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TryRecv(Message message, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(message);
        return ReceiveMessage(message, RecvFlags.None, Deadline(timeout));
    }

    /// <summary>Receives one frame as UTF-8 text, waiting at most <paramref name="timeout"/>; false (and null) when none came in time.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TryRecvString(TimeSpan timeout, [NotNullWhen(true)] out string? text) =>
        TryRecvCopy(out text, RecvFlags.None, Deadline(timeout), &DecodeUtf8);

    /// <summary>Receives one frame as a new byte array without blocking; false (and null) when none was waiting.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TryRecvBytes([NotNullWhen(true)] out byte[]? data) => TryRecvBytes(TimeSpan.Zero, out data);

    /// <summary>Receives one frame as a new byte array, waiting at most <paramref name="timeout"/>; false (and null) when none came in time.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TryRecvBytes(TimeSpan timeout, [NotNullWhen(true)] out byte[]? data) =>
        TryRecvCopy(out data, RecvFlags.None, Deadline(timeout), &CopyBytes);

    /// <summary>
    /// Receives a whole multipart message into <paramref name="message"/>, replacing its frames and reusing their
    /// <see cref="Message"/> objects, waiting at most <paramref name="timeout"/> for its first frame.
    /// </summary>
    /// <returns>True when a message was received; false when none came in time (<paramref name="message"/> is then left empty).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TryRecvMultipart(MultipartMessage message, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(message);
        return ReceiveFrames(message, RecvFlags.None, Deadline(timeout));
    }

    /// <summary>
    /// Receives a whole multipart message into a new <see cref="MultipartMessage"/> (which the caller disposes), waiting
    /// at most <paramref name="timeout"/>; false (and null, nothing allocated) when none came in time.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TryRecvMultipart(TimeSpan timeout, [NotNullWhen(true)] out MultipartMessage? message)
    {
        long deadline = Deadline(timeout);

        // Wait first, so that a timeout allocates nothing; once readable the whole message is here.
        MultipartMessage? received = null;
        try
        {
            while (WaitUntil(PollEvents.In, deadline, lookAtOnce: received is null))
            {
                received ??= MultipartMessage.ForCaller();
                if (TryRecvMultipart(received, TimeSpan.Zero))
                {
                    message = received;
                    return true;
                }
            }
        }
        catch
        {
            received?.Dispose();
            throw;
        }

        received?.Dispose();
        message = null;
        return false;
    }

    /// <summary>Sends one frame copied from <paramref name="data"/>, waiting at most <paramref name="timeout"/> for room to queue it.</summary>
    /// <param name="data">The frame's bytes.</param>
    /// <param name="timeout">How long to wait: <see cref="TimeSpan.Zero"/> tries once, <see cref="Timeout.InfiniteTimeSpan"/> waits as long as it takes.</param>
    /// <param name="flags"><see cref="SendFlags.SendMore"/> for all but the last frame of a multipart message; <see cref="SendFlags.DontWait"/> changes nothing.</param>
    /// <returns>True when queued; false when it could not be queued in time (nothing was queued).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ArgumentException"><see cref="SendFlags.SendMore"/> on a draft socket, which takes single-part messages only.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TrySend(ReadOnlySpan<byte> data, TimeSpan timeout, SendFlags flags = SendFlags.None)
    {
        long deadline = Deadline(timeout);
        fixed (byte* p = data)
        {
            return SendCore(p, data.Length, flags, deadline);
        }
    }

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/> as one frame, waiting at most <paramref name="timeout"/>; see <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags)"/>.</summary>
    /// <returns>True when queued; false when it could not be queued in time (nothing was queued).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public bool TrySend(string text, TimeSpan timeout, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(text);
        return SendText(text, flags, Deadline(timeout));
    }

    /// <summary>
    /// Sends <paramref name="message"/> as one frame without copying, waiting at most <paramref name="timeout"/> for room
    /// to queue it. When queued the message is left empty (as for <see cref="Send(Message, SendFlags)"/>); on a timeout
    /// it keeps its content and can be sent again.
    /// </summary>
    /// <returns>True when queued; false when it could not be queued in time.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ArgumentException"><see cref="SendFlags.SendMore"/> on a draft socket, which takes single-part messages only.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TrySend(Message message, TimeSpan timeout, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(message);
        return SendMessage(message, flags, Deadline(timeout));
    }

    /// <summary>
    /// Sends every frame of <paramref name="message"/> as one multipart message, without copying, waiting at most
    /// <paramref name="timeout"/> for room to queue it. Either the whole message is queued (its frames are left empty)
    /// or, on a timeout, nothing is and every frame keeps its content.
    /// </summary>
    /// <returns>True when sent; false when it could not be queued in time.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="message"/> has no frames, or more than one on a draft socket (single-part only).</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">A frame, or the socket, was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TrySendMultipart(MultipartMessage message, TimeSpan timeout)
    {
        ValidateFrames(message, SendFlags.None);
        return SendFrames(message, SendFlags.None, Deadline(timeout));
    }
}
