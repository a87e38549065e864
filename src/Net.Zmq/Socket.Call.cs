using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// The one synchronous call path behind every public send and receive overload: a call begins on the socket's
/// <see cref="SocketGate"/> (and takes the <see cref="Message"/> or frames it moves), makes its libzmq call, and ends.
/// A send or receive with a deadline makes its libzmq call with DontWait and waits in <c>zmq_poll</c> between attempts.
/// Every multipart send, whatever its overload, is one call: nothing (a parked <c>SendAsync</c> pumped at a call's end)
/// can come between its frames.
/// </summary>
public sealed partial class Socket
{
    /// <summary>No deadline: the call blocks in libzmq, or not, as its flags and the socket's timeout options say.</summary>
    private const long NoDeadline = long.MinValue;

    /// <summary>A deadline that never comes: the call waits in <c>zmq_poll</c> as long as it takes.</summary>
    private const long InfiniteDeadline = -1;

    private const int StackStringBytes = 256;

    /// <summary>Begins a call on the native socket (see <see cref="SocketGate.BeginCall"/>).</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on it (thread-safe draft sockets excepted).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal SocketCall BeginCall() => _gate.BeginCall();

    /// <summary>Begins a call that also holds <paramref name="message"/> (see <see cref="Message.TryEnterCall"/>) until it ends.</summary>
    /// <exception cref="InvalidOperationException">Another call (on another thread, or an asynchronous one) is using the message.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private SocketCall BeginCall(Message message)
    {
        SocketCall call = _gate.BeginCall();
        if (!message.TryEnterCall())
        {
            call.Dispose();
            message.ThrowInUse();
        }

        return call.Holding(message);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private unsafe bool SendCore(byte* data, int length, SendFlags flags, long deadline = NoDeadline)
    {
        ThrowIfRefused(flags);
        int callFlags = CallFlags((int)flags, deadline);
        SocketCall call = BeginCall();
        while (LibZmq.Send(call.Native, data, (nuint)length, callFlags) < 0)
        {
            if (!RetryOrEndCall(call, callFlags, Direction.Send, deadline))
            {
                return false;
            }
        }

        call.Dispose();
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private unsafe bool SendMessage(Message message, SendFlags flags, long deadline)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.ThrowIfNotSendable();
        ThrowIfRefused(flags);
        int callFlags = CallFlags((int)flags, deadline);
        SocketCall call = BeginCall(message);
        fixed (ZmqMsg* msg = &message.Native)
        {
            while (LibZmq.MsgSend(msg, call.Native, callFlags) < 0)
            {
                if (!RetryOrEndCall(call, callFlags, Direction.Send, deadline))
                {
                    return false;
                }
            }
        }

        message.MarkSent();
        call.Dispose();
        return true;
    }

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/>, encoded on the stack or into a pooled array.</summary>
    private unsafe bool SendText(string text, SendFlags flags, long deadline)
    {
        if (Encoding.UTF8.GetMaxByteCount(text.Length) <= StackStringBytes)
        {
            byte* buffer = stackalloc byte[StackStringBytes];
            int length = Encoding.UTF8.GetBytes(text, new Span<byte>(buffer, StackStringBytes));
            return SendCore(buffer, length, flags, deadline);
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetByteCount(text));
        try
        {
            int length = Encoding.UTF8.GetBytes(text, rented);
            fixed (byte* p = rented)
            {
                return SendCore(p, length, flags, deadline);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private unsafe int RecvCore(byte* buffer, int length, RecvFlags flags, long deadline = NoDeadline)
    {
        int callFlags = CallFlags((int)flags, deadline);
        SocketCall call = BeginCall();
        int received;
        while ((received = LibZmq.Recv(call.Native, buffer, (nuint)length, callFlags)) < 0)
        {
            if (!RetryOrEndCall(call, callFlags, Direction.Receive, deadline))
            {
                return -1;
            }
        }

        call.Dispose();
        return received;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private unsafe bool ReceiveMessage(Message message, RecvFlags flags, long deadline)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.ThrowIfDisposed();
        int callFlags = CallFlags((int)flags, deadline);
        SocketCall call = BeginCall(message);
        fixed (ZmqMsg* msg = &message.Native)
        {
            while (LibZmq.MsgRecv(msg, call.Native, callFlags) < 0)
            {
                if (!RetryOrEndCall(call, callFlags, Direction.Receive, deadline))
                {
                    return false;
                }
            }
        }

        message.MarkFilled();
        call.Dispose();
        return true;
    }

    /// <summary>
    /// Receives one frame into a message of its own and returns what <paramref name="copy"/> makes of its bytes; false
    /// (and null) when none came (under DontWait, or by the deadline).
    /// </summary>
    private unsafe bool TryRecvCopy<T>([NotNullWhen(true)] out T? value, RecvFlags flags, long deadline, delegate*<ReadOnlySpan<byte>, T> copy)
        where T : class
    {
        ZmqMsg msg;
        _ = LibZmq.MsgInit(&msg); // cannot fail
        try
        {
            int callFlags = CallFlags((int)flags, deadline);
            SocketCall call = BeginCall();
            while (LibZmq.MsgRecv(&msg, call.Native, callFlags) < 0)
            {
                if (!RetryOrEndCall(call, callFlags, Direction.Receive, deadline))
                {
                    value = null;
                    return false;
                }
            }

            call.Dispose();
            value = copy(new ReadOnlySpan<byte>(LibZmq.MsgData(&msg), (int)LibZmq.MsgSize(&msg)));
            return true;
        }
        finally
        {
            _ = LibZmq.MsgClose(&msg); // cannot fail on a message zmq_msg_init set up
        }
    }

    private static string DecodeUtf8(ReadOnlySpan<byte> bytes) => Encoding.UTF8.GetString(bytes);

    private static byte[] CopyBytes(ReadOnlySpan<byte> bytes) => bytes.ToArray();

    /// <summary>Sends checked <see cref="Message"/> frames as one multipart message; false when the first could not be queued (under DontWait, or by the deadline).</summary>
    private bool SendFrames(IReadOnlyList<Message> frames, SendFlags flags, long deadline)
    {
        // Only the first frame may find no room; once it is queued libzmq accepts the rest of the message.
        int firstFlags = CallFlags((int)flags, deadline);
        int restFlags = (int)(flags & ~SendFlags.DontWait);
        int nextFrame = 0;
        MultipartFrames.EnterCall(frames);
        try
        {
            SocketCall call = BeginCall();
            while (!MultipartFrames.TrySend(call.Native, frames, ref nextFrame, firstFlags, restFlags))
            {
                if (!RetryOrEndCall(call, nextFrame == 0 ? firstFlags : restFlags, Direction.Send, nextFrame == 0 ? deadline : NoDeadline))
                {
                    return false;
                }
            }

            call.Dispose();
            return true;
        }
        finally
        {
            MultipartFrames.ExitCall(frames);
        }
    }

    /// <summary>
    /// Sends checked frames copied from <paramref name="arrays"/>, or the UTF-8 bytes of <paramref name="texts"/>, as one
    /// multipart message in one call; false when the first could not be queued under DontWait.
    /// </summary>
    private unsafe bool SendCopies(IReadOnlyList<byte[]>? arrays, string[]? texts, SendFlags flags)
    {
        int last = (arrays?.Count ?? texts!.Length) - 1;
        byte[]? encoded = null;
        bool inFailure = false;
        SocketCall call = BeginCall();
        try
        {
            for (int i = 0; i <= last; i++)
            {
                // Only the first frame may find no room; once it is queued libzmq accepts the rest of the message.
                int frameFlags = (i == 0 ? (int)flags : (int)(flags & ~SendFlags.DontWait)) | (i < last ? (int)SendFlags.SendMore : 0);
                ReadOnlySpan<byte> frame = arrays is not null ? arrays[i] : Utf8(texts![i], ref encoded);
                fixed (byte* p = frame)
                {
                    while (LibZmq.Send(call.Native, p, (nuint)frame.Length, frameFlags) < 0)
                    {
                        inFailure = true;
                        if (!RetryOrEndCall(call, frameFlags, Direction.Send, NoDeadline))
                        {
                            return false;
                        }

                        inFailure = false;
                    }
                }
            }

            call.Dispose();
            return true;
        }
        catch when (!inFailure)
        {
            call.Dispose(); // RetryOrEndCall ends the call itself before it throws
            throw;
        }
        finally
        {
            if (encoded is not null)
            {
                ArrayPool<byte>.Shared.Return(encoded);
            }
        }
    }

    /// <summary>The UTF-8 bytes of <paramref name="text"/> in <paramref name="buffer"/> (rented, or replaced by a larger one).</summary>
    private static ReadOnlySpan<byte> Utf8(string text, ref byte[]? buffer)
    {
        int size = Encoding.UTF8.GetMaxByteCount(text.Length);
        if (buffer is null || buffer.Length < size)
        {
            if (buffer is not null)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }

            buffer = ArrayPool<byte>.Shared.Rent(size);
        }

        return buffer.AsSpan(0, Encoding.UTF8.GetBytes(text, buffer));
    }

    /// <summary>Receives a whole multipart message; false when its first frame did not come (under DontWait, or by the deadline).</summary>
    private bool ReceiveFrames(MultipartMessage message, RecvFlags flags, long deadline)
    {
        ArgumentNullException.ThrowIfNull(message);

        // Only the first frame may be missing; once it is here libzmq has the whole message.
        int firstFlags = CallFlags((int)flags, deadline);
        int nextFrame = 0;
        MultipartFrames.EnterCall(message);
        try
        {
            SocketCall call = BeginCall();
            while (!MultipartFrames.TryReceive(call.Native, message, ref nextFrame, firstFlags))
            {
                if (!RetryOrEndCall(call, nextFrame == 0 ? firstFlags : 0, Direction.Receive, nextFrame == 0 ? deadline : NoDeadline))
                {
                    return false;
                }
            }

            call.Dispose();
            return true;
        }
        finally
        {
            MultipartFrames.ExitCall(message);
        }
    }

    /// <summary>
    /// After libzmq refused a send or receive made with <paramref name="callFlags"/> (errno read here): true to make it
    /// again — after EINTR, or, with a <paramref name="deadline"/>, once the socket is ready. Otherwise it <b>ends the
    /// call before it returns false or throws</b>: false when a DontWait call found nothing to do (EAGAIN) or the
    /// deadline passed; a <see cref="ZmqException"/> (or <see cref="ContextTerminatedException"/>) for anything else.
    /// So the paths that skip <c>finally</c> (see <see cref="SocketGate"/>) never leave with the socket claimed.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool RetryOrEndCall(scoped in SocketCall call, int callFlags, Direction direction, long deadline)
    {
        int errorNumber = LibZmq.Errno();
        AfterFailure next = ErrnoPolicy.Classify(errorNumber, (callFlags & (int)SendFlags.DontWait) != 0);
        if (next == AfterFailure.Retry)
        {
            return true;
        }

        if (next == AfterFailure.NothingYet && deadline != NoDeadline)
        {
            bool ready;
            try
            {
                ready = WaitForReadiness(call.Native, direction == Direction.Send ? PollEvents.Out : PollEvents.In, deadline, lookAtOnce: false);
            }
            catch
            {
                call.Dispose();
                throw;
            }

            if (ready)
            {
                return true;
            }
        }

        call.Dispose();
        if (next == AfterFailure.Fail)
        {
            ThrowHelper.ThrowTransferFailed(errorNumber, Type, direction);
        }

        return false;
    }

    /// <summary>The flags of the libzmq call: as given without a deadline; with one, DontWait too (the waiting is done by <c>zmq_poll</c>).</summary>
    private static int CallFlags(int flags, long deadline) =>
        deadline == NoDeadline ? flags : flags | (int)SendFlags.DontWait;

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
        ZmqPollItemWindows item; // the larger of the two layouts: room for either on the stack
        ZmqPollItems.Write((byte*)&item, socket, fd: -1, events);

        while (true)
        {
            int remaining = RemainingMilliseconds(deadline);
            if (remaining == 0 && !lookAtOnce)
            {
                return false; // the time is up (TimeSpan.Zero: the one try was made)
            }

            lookAtOnce = false;
            int ready = ZmqPoll.Wait(&item, 1, remaining, out int errorNumber);
            if (ready > 0)
            {
                return true;
            }

            if (ready < 0)
            {
                ThrowHelper.ThrowZmq(errorNumber, $"Waiting on a {Type} socket");
            }

            // Timed out, or woken early: the loop looks at the clock again.
        }
    }

    /// <summary>The <see cref="Environment.TickCount64"/> at which <paramref name="timeout"/> ends, or <see cref="InfiniteDeadline"/>.</summary>
    private static long Deadline(TimeSpan timeout)
    {
        int milliseconds = OptionValues.ToMilliseconds(timeout, nameof(timeout));
        if (milliseconds < 0)
        {
            return InfiniteDeadline;
        }

        return Environment.TickCount64 + milliseconds; // a fraction of a millisecond counts as a whole one
    }

    private static int RemainingMilliseconds(long deadline) =>
        deadline == InfiniteDeadline ? -1 : (int)Math.Max(0, deadline - Environment.TickCount64);

    /// <summary>
    /// Checks a multipart message before its first frame leaves, for every multipart send: frames given, none null, one
    /// only on a socket that takes single-part messages, and a <see cref="Message"/> frame neither disposed nor sent
    /// already. A bad argument never leaves half a message queued.
    /// </summary>
    private void ValidateFrames<T>([NotNull] IReadOnlyList<T>? frames, SendFlags flags, [CallerArgumentExpression(nameof(frames))] string? paramName = null)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(frames, paramName);
        int count = frames.Count;
        if (count == 0)
        {
            ThrowHelper.ThrowArgument("A multipart message needs at least one frame.", paramName!);
        }

        if (count > 1 && (_refusedSendFlags & (int)SendFlags.SendMore) != 0)
        {
            ThrowHelper.ThrowArgument(ThrowHelper.SinglePartReason(Type, IsConflating, $"this message has {count} frames"), paramName!);
        }

        ThrowIfRefused(flags);
        for (int i = 0; i < count; i++)
        {
            // By index: MultipartMessage's enumerator would allocate on every send.
            T? frame = frames[i];
            if (frame is null)
            {
                throw new ArgumentNullException(paramName, $"Frame {i} is null.");
            }

            if (frame is not Message message)
            {
                continue;
            }

            if (frames is not MultipartMessage)
            {
                message.ThrowIfNotSendable();
                continue;
            }

            message.ThrowIfDisposed();
            if (message.WasSent)
            {
                ThrowHelper.ThrowInvalidOperation(
                    "This MultipartMessage was sent already: libzmq took the content of its frames and left them empty, so " +
                    "sending it again would send empty frames. Create a new MultipartMessage for each send, or fill it again " +
                    "first (receive into it, or Rebuild or Copy into its frames).");
            }

            message.ThrowIfNotSendable(); // neither disposed nor sent: puts what was written through Data into the frame
        }
    }

    /// <summary>Refuses <see cref="SendFlags.SendMore"/> on a socket that takes single-part messages, and every send after <see cref="RefuseSends"/>, before anything is queued.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ThrowIfRefused(SendFlags flags)
    {
        if ((((int)flags | RefuseEverySend) & _refusedSendFlags) != 0)
        {
            ThrowRefused(flags);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowRefused(SendFlags flags)
    {
        if ((_refusedSendFlags & RefuseEverySend) != 0)
        {
            throw Volatile.Read(ref _sendRefusal)!();
        }

        ThrowHelper.ThrowSinglePart(Type, IsConflating, nameof(flags));
    }

    /// <summary>Checks a native buffer given as pointer and size: a negative size, or a null pointer with a size, is refused.</summary>
    private static unsafe byte* NativeBuffer(nint pointer, int size, string nullMessage, [CallerArgumentExpression(nameof(pointer))] string? paramName = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        if (pointer == 0 && size != 0)
        {
            throw new ArgumentNullException(paramName, nullMessage);
        }

        return (byte*)pointer;
    }
}
