namespace Net.Zmq;

/// <summary>Multipart sends from plain collections: strings, and <see cref="Message"/> frames the caller keeps.</summary>
public sealed partial class Socket
{
    /// <summary>
    /// Sends the UTF-8 bytes of each of <paramref name="frames"/> as one multipart message, blocking until it is queued.
    /// All frames are checked before the first one leaves.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its elements is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="frames"/> is empty, or has more than one frame on a draft socket (single-part only).</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public void SendMultipart(params string[] frames)
    {
        ValidateFrames(frames, SendFlags.None);
        SendCopies(arrays: null, frames, SendFlags.None);
    }

    /// <summary>
    /// Sends <paramref name="frames"/> as one multipart message, without copying, as
    /// <see cref="SendMultipart(MultipartMessage, SendFlags)"/> does for the frames of a <see cref="MultipartMessage"/>:
    /// all are checked before the first one leaves, and each one sent is left empty (its content now belongs to libzmq).
    /// The frames stay the caller's to dispose. An array or a list is read by index; another sequence is read once.
    /// </summary>
    /// <returns>True when sent; false only under <see cref="SendFlags.DontWait"/> when nothing could be queued (nothing was sent).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its elements is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="frames"/> is empty, or has more than one frame on a draft socket (single-part only).</exception>
    /// <exception cref="ObjectDisposedException">A frame, or the socket, was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public bool SendMultipart(IEnumerable<Message> frames, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(frames);
        if (frames is MultipartMessage multipart)
        {
            return SendMultipart(multipart, flags);
        }

        IReadOnlyList<Message> list = frames as IReadOnlyList<Message> ?? [.. frames];
        ValidateFrames(list, flags);
        return SendFrames(list, flags, NoDeadline);
    }
}
