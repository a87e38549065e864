using System.Diagnostics.CodeAnalysis;

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
        ValidateFrames(message, flags);
        return SendFrames(message, flags, NoDeadline);
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
        ValidateFrames(frames, flags);
        return SendCopies(frames, texts: null, flags);
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
}
