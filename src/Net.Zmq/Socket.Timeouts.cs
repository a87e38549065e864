using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using System.Text;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

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
/// allocate nothing beyond what they return (a text whose UTF-8 form may exceed 256 bytes is encoded into a new array).
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
            using SocketCall call = BeginCall();
            while (true)
            {
                size = LibZmq.Recv(call.Native, p, (nuint)buffer.Length, (int)RecvFlags.DontWait);
                if (size >= 0)
                {
                    return true;
                }

                if (!WaitAfterFailure(call.Native, Direction.Receive, deadline))
                {
                    size = 0;
                    return false;
                }
            }
        }
    }

    /// <summary>Receives one frame into <paramref name="message"/>, waiting at most <paramref name="timeout"/>; the message is untouched on a timeout.</summary>
    /// <returns>True when a frame was received; false when none came in time.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TryRecv(Message message, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.ThrowIfDisposed();
        long deadline = Deadline(timeout);
        fixed (ZmqMsg* msg = &message.Native)
        {
            if (!ReceiveInto(msg, deadline))
            {
                return false;
            }
        }

        message.MarkFilled();
        return true;
    }

    /// <summary>Receives one frame as UTF-8 text, waiting at most <paramref name="timeout"/>; false (and null) when none came in time.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TryRecvString(TimeSpan timeout, [NotNullWhen(true)] out string? text)
    {
        long deadline = Deadline(timeout);
        ZmqMsg msg;
        _ = LibZmq.MsgInit(&msg); // cannot fail
        try
        {
            text = ReceiveInto(&msg, deadline) ? Encoding.UTF8.GetString(LibZmq.MsgData(&msg), (int)LibZmq.MsgSize(&msg)) : null;
            return text is not null;
        }
        finally
        {
            _ = LibZmq.MsgClose(&msg); // cannot fail on a message zmq_msg_init set up
        }
    }

    /// <summary>Receives one frame as a new byte array without blocking; false (and null) when none was waiting.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool TryRecvBytes([NotNullWhen(true)] out byte[]? data) => TryRecvBytes(TimeSpan.Zero, out data);

    /// <summary>Receives one frame as a new byte array, waiting at most <paramref name="timeout"/>; false (and null) when none came in time.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or beyond int.MaxValue milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public unsafe bool TryRecvBytes(TimeSpan timeout, [NotNullWhen(true)] out byte[]? data)
    {
        long deadline = Deadline(timeout);
        ZmqMsg msg;
        _ = LibZmq.MsgInit(&msg); // cannot fail
        try
        {
            data = ReceiveInto(&msg, deadline) ? new ReadOnlySpan<byte>(LibZmq.MsgData(&msg), (int)LibZmq.MsgSize(&msg)).ToArray() : null;
            return data is not null;
        }
        finally
        {
            _ = LibZmq.MsgClose(&msg); // cannot fail on a message zmq_msg_init set up
        }
    }

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
        long deadline = Deadline(timeout);
        int nextFrame = 0;
        using SocketCall call = BeginCall();

        // Only the first frame may be missing; once it is here libzmq has the whole message.
        while (!MultipartFrames.TryReceive(call.Native, message, ref nextFrame, (int)RecvFlags.DontWait))
        {
            if (nextFrame != 0)
            {
                _ = ContinueAfterFailure(0, Direction.Receive); // EINTR: go on with the frame (anything else throws)
            }
            else if (!WaitAfterFailure(call.Native, Direction.Receive, deadline))
            {
                return false;
            }
        }

        return true;
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
                received ??= new MultipartMessage();
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
            return TrySendCore(p, data.Length, flags, deadline);
        }
    }

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/> as one frame, waiting at most <paramref name="timeout"/>; see <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags)"/>.</summary>
    /// <returns>True when queued; false when it could not be queued in time (nothing was queued).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public unsafe bool TrySend(string text, TimeSpan timeout, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(text);
        long deadline = Deadline(timeout);
        if (Encoding.UTF8.GetMaxByteCount(text.Length) <= StackStringBytes)
        {
            byte* buffer = stackalloc byte[StackStringBytes];
            int length = Encoding.UTF8.GetBytes(text, new Span<byte>(buffer, StackStringBytes));
            return TrySendCore(buffer, length, flags, deadline);
        }

        byte[] encoded = Encoding.UTF8.GetBytes(text); // a long text: its copy costs more than this array
        fixed (byte* p = encoded)
        {
            return TrySendCore(p, encoded.Length, flags, deadline);
        }
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
    public unsafe bool TrySend(Message message, TimeSpan timeout, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.ThrowIfNotSendable();
        ThrowIfRefused(flags);
        long deadline = Deadline(timeout);
        int dontWait = (int)(flags | SendFlags.DontWait);
        using SocketCall call = BeginCall();
        fixed (ZmqMsg* msg = &message.Native)
        {
            while (LibZmq.MsgSend(msg, call.Native, dontWait) < 0)
            {
                if (!WaitAfterFailure(call.Native, Direction.Send, deadline))
                {
                    return false;
                }
            }
        }

        message.MarkSent();
        return true;
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
        ValidateMultipart(message);
        long deadline = Deadline(timeout);
        int nextFrame = 0;
        using SocketCall call = BeginCall();

        // Only the first frame may find no room; once it is queued libzmq accepts the rest of the message.
        while (!MultipartFrames.TrySend(call.Native, message, ref nextFrame, (int)SendFlags.DontWait, restFlags: 0))
        {
            if (nextFrame != 0)
            {
                _ = ContinueAfterFailure(0, Direction.Send); // EINTR: go on with the frame (anything else throws)
            }
            else if (!WaitAfterFailure(call.Native, Direction.Send, deadline))
            {
                return false;
            }
        }

        return true;
    }

    private unsafe bool TrySendCore(byte* data, int length, SendFlags flags, long deadline)
    {
        ThrowIfRefused(flags);
        int dontWait = (int)(flags | SendFlags.DontWait);
        using SocketCall call = BeginCall();
        while (LibZmq.Send(call.Native, data, (nuint)length, dontWait) < 0)
        {
            if (!WaitAfterFailure(call.Native, Direction.Send, deadline))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Receives under DontWait into a message that does not move, waiting for readability until <paramref name="deadline"/>.</summary>
    private unsafe bool ReceiveInto(ZmqMsg* msg, long deadline)
    {
        using SocketCall call = BeginCall();
        while (LibZmq.MsgRecv(msg, call.Native, (int)RecvFlags.DontWait) < 0)
        {
            if (!WaitAfterFailure(call.Native, Direction.Receive, deadline))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// After a DontWait send or receive libzmq refused (errno read here): true to try again, at once after EINTR or once
    /// the socket is ready; false when <paramref name="deadline"/> passed first. Throws for anything but EINTR and EAGAIN.
    /// </summary>
    private bool WaitAfterFailure(nint socket, Direction direction, long deadline) =>
        ContinueAfterFailure((int)SendFlags.DontWait, direction)
        || WaitForReadiness(socket, direction == Direction.Send ? PollEvents.Out : PollEvents.In, deadline, lookAtOnce: false);

    /// <summary>Waits, inside a call of its own, until the socket is ready for <paramref name="events"/>; false once <paramref name="deadline"/> passed.</summary>
    private bool WaitUntil(PollEvents events, long deadline, bool lookAtOnce)
    {
        using SocketCall call = BeginCall();
        return WaitForReadiness(call.Native, events, deadline, lookAtOnce);
    }

    /// <summary>
    /// Polls the socket alone for <paramref name="events"/> until ready (true) or <paramref name="deadline"/> (false);
    /// with <paramref name="lookAtOnce"/> it looks at least once even when the time is already up.
    /// </summary>
    private unsafe bool WaitForReadiness(nint socket, PollEvents events, long deadline, bool lookAtOnce)
    {
        // zmq_pollitem_t on the stack, in the platform's layout: its descriptor field is an int on Unix, a SOCKET on Windows.
        ZmqPollItemWindows item = default;
        if (OperatingSystem.IsWindows())
        {
            item = new ZmqPollItemWindows { Socket = socket, Events = (short)events };
        }
        else
        {
            *(ZmqPollItemUnix*)&item = new ZmqPollItemUnix { Socket = socket, Fd = -1, Events = (short)events };
        }

        while (true)
        {
            int remaining = RemainingMilliseconds(deadline);
            if (remaining == 0 && !lookAtOnce)
            {
                return false; // the time is up (TimeSpan.Zero: the one try was made)
            }

            lookAtOnce = false;

            int ready = LibZmq.Poll(&item, 1, new CLong(remaining));
            if (ready > 0)
            {
                return true;
            }

            if (ready < 0)
            {
                int errorNumber = LibZmq.Errno();
                if (ErrnoPolicy.Classify(errorNumber, dontWait: false) != AfterFailure.Retry)
                {
                    ThrowHelper.ThrowZmq(errorNumber, $"Waiting on a {Type} socket");
                }
            }

            // Timed out, interrupted, or woken early: the loop looks at the clock again.
        }
    }

    private const long InfiniteDeadline = -1;

    /// <summary>The <see cref="Environment.TickCount64"/> at which <paramref name="timeout"/> ends, or <see cref="InfiniteDeadline"/>.</summary>
    private static long Deadline(TimeSpan timeout)
    {
        int milliseconds = OptionValues.ToMilliseconds(timeout, nameof(timeout));
        if (milliseconds < 0)
        {
            return InfiniteDeadline;
        }

        // A fraction of a millisecond still waits that millisecond rather than none.
        return Environment.TickCount64 + (timeout > TimeSpan.Zero ? Math.Max(milliseconds, 1) : 0);
    }

    private static int RemainingMilliseconds(long deadline) =>
        deadline == InfiniteDeadline ? -1 : (int)Math.Max(0, deadline - Environment.TickCount64);
}
