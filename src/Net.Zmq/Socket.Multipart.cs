using System.Diagnostics.CodeAnalysis;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Sends every frame of <paramref name="message"/> as one multipart message, without copying. All frames are
    /// checked before the first one leaves, so a bad argument never leaves half a message queued. On success the
    /// frames are left empty (their content now belongs to libzmq).
    /// </summary>
    /// <returns>True when sent; false only under <see cref="SendFlags.DontWait"/> when nothing could be queued (nothing was sent).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="message"/> has no frames, or more than one on a draft socket or a socket with <see cref="SocketOption.Conflate"/> set (single-part only).</exception>
    /// <exception cref="ObjectDisposedException">A frame was disposed.</exception>
    /// <exception cref="InvalidOperationException">A frame was sent already (the multipart message was sent before) and not filled again since: it is empty.</exception>
    public bool SendMultipart(MultipartMessage message, SendFlags flags = SendFlags.None)
    {
        ValidateMultipart(message);
        ThrowIfRefused(flags);
        return SendFrames(message, flags, NoDeadline);
    }

    /// <summary>Sends checked frames as one multipart message; false when the first could not be queued (under DontWait, or by the deadline).</summary>
    private bool SendFrames(IReadOnlyList<Message> frames, SendFlags flags, long deadline)
    {
        // Only the first frame may find no room; once it is queued libzmq accepts the rest of the message.
        int firstFlags = CallFlags((int)flags, deadline);
        int restFlags = (int)(flags & ~SendFlags.DontWait);
        int nextFrame = 0;
        using SocketCall call = BeginCall();
        while (!MultipartFrames.TrySend(call.Native, frames, ref nextFrame, firstFlags, restFlags))
        {
            bool retry = nextFrame == 0
                ? RetryAfterFailure(call.Native, firstFlags, Direction.Send, deadline)
                : ContinueAfterFailure(restFlags, Direction.Send);
            if (!retry)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Receives a whole multipart message; false when its first frame did not come (under DontWait, or by the deadline).</summary>
    private bool ReceiveFrames(MultipartMessage message, RecvFlags flags, long deadline)
    {
        ArgumentNullException.ThrowIfNull(message);

        // Only the first frame may be missing; once it is here libzmq has the whole message.
        int firstFlags = CallFlags((int)flags, deadline);
        int nextFrame = 0;
        using SocketCall call = BeginCall();
        while (!MultipartFrames.TryReceive(call.Native, message, ref nextFrame, firstFlags))
        {
            bool retry = nextFrame == 0
                ? RetryAfterFailure(call.Native, firstFlags, Direction.Receive, deadline)
                : ContinueAfterFailure(0, Direction.Receive);
            if (!retry)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Sends <paramref name="frames"/> as one multipart message (each copied). All frames are checked before the
    /// first one leaves.
    /// </summary>
    /// <returns>True when sent; false only under <see cref="SendFlags.DontWait"/> when nothing could be queued.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its elements is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="frames"/> is empty, or has more than one frame on a draft socket or a socket with <see cref="SocketOption.Conflate"/> set (single-part only).</exception>
    public bool SendMultipart(IReadOnlyList<byte[]> frames, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(frames);
        if (frames.Count == 0)
        {
            ThrowHelper.ThrowArgument("A multipart message needs at least one frame.", nameof(frames));
        }

        ThrowIfMultipartRefused(frames.Count, nameof(frames));

        for (int i = 0; i < frames.Count; i++)
        {
            if (frames[i] is null)
            {
                throw new ArgumentNullException(nameof(frames), $"Frame {i} is null.");
            }
        }

        int last = frames.Count - 1;
        for (int i = 0; i <= last; i++)
        {
            if (!Send(frames[i].AsSpan(), FrameFlags(flags, i, last)))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Receives a whole multipart message into a new <see cref="MultipartMessage"/>, blocking until it arrives.</summary>
    public MultipartMessage RecvMultipart()
    {
        var message = MultipartMessage.ForCaller();
        try
        {
            RecvMultipart(message);
            return message;
        }
        catch
        {
            message.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Receives a whole multipart message into <paramref name="message"/>, replacing its frames and reusing their
    /// <see cref="Message"/> objects.
    /// </summary>
    /// <returns>True when received; false only under <see cref="RecvFlags.DontWait"/> when no message is waiting.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    public bool RecvMultipart(MultipartMessage message, RecvFlags flags = RecvFlags.None) => ReceiveFrames(message, flags, NoDeadline);

    /// <summary>Receives a whole multipart message without blocking; false (and null) when none is waiting.</summary>
    public bool TryRecvMultipart([NotNullWhen(true)] out MultipartMessage? message)
    {
        // Ask first, so that finding nothing allocates nothing.
        if ((Events & PollEvents.In) == 0)
        {
            message = null;
            return false;
        }

        message = RecvMultipart();
        return true;
    }

    /// <summary>Checks every frame before the first one leaves, so a bad argument never leaves half a message queued.</summary>
    private void ValidateMultipart(MultipartMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (message.Count == 0)
        {
            ThrowHelper.ThrowArgument("A multipart message needs at least one frame.", nameof(message));
        }

        ThrowIfMultipartRefused(message.Count, nameof(message));

        for (int i = 0; i < message.Count; i++)
        {
            // By index: MultipartMessage's enumerator would allocate on every send.
            Message frame = message[i];
            frame.ThrowIfDisposed();
            if (frame.WasSent)
            {
                ThrowHelper.ThrowInvalidOperation(
                    "This MultipartMessage was sent already: libzmq took the content of its frames and left them empty, so " +
                    "sending it again would send empty frames. Create a new MultipartMessage for each send, or fill it again " +
                    "first (receive into it, or Rebuild or Copy into its frames).");
            }
        }
    }

    private void ThrowIfMultipartRefused(int frames, string paramName)
    {
        if (frames > 1 && (_refusedSendFlags & (int)SendFlags.SendMore) != 0)
        {
            ThrowHelper.ThrowArgument(ThrowHelper.SinglePartReason(Type, IsConflating, $"this message has {frames} frames"), paramName);
        }
    }

    private static SendFlags FrameFlags(SendFlags flags, int index, int last)
    {
        // Only the first frame may report EAGAIN; once it is queued libzmq accepts the rest of the message.
        SendFlags frameFlags = index == 0 ? flags : flags & ~SendFlags.DontWait;
        return index < last ? frameFlags | SendFlags.SendMore : frameFlags;
    }
}
