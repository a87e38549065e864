using Net.Zmq.Interop;

namespace Net.Zmq.Internal;

/// <summary>
/// Moves the frames of a <see cref="MultipartMessage"/> through libzmq, for the synchronous and the asynchronous
/// calls alike. Both are resumable: when libzmq refuses a frame they return false with errno set, and the frame
/// counter says where to go on (after EINTR, or once the socket is ready again).
/// </summary>
internal static unsafe class MultipartFrames
{
    /// <summary>
    /// Sends <paramref name="frames"/> (a <see cref="MultipartMessage"/>, or the caller's list of messages) from
    /// <paramref name="nextFrame"/> on: the first one with <paramref name="firstFlags"/>, the others with
    /// <paramref name="restFlags"/>, each but the last with SendMore.
    /// </summary>
    /// <returns>True when the last frame is queued; false when libzmq refused frame <paramref name="nextFrame"/>.</returns>
    internal static bool TrySend(nint socket, IReadOnlyList<Message> frames, ref int nextFrame, int firstFlags, int restFlags)
    {
        int last = frames.Count - 1;
        for (; nextFrame <= last; nextFrame++)
        {
            int flags = (nextFrame == 0 ? firstFlags : restFlags) | (nextFrame < last ? (int)SendFlags.SendMore : 0);
            Message frame = frames[nextFrame];
            fixed (ZmqMsg* msg = &frame.Native)
            {
                if (LibZmq.MsgSend(msg, socket, flags) < 0)
                {
                    return false;
                }
            }

            frame.MarkSent();
        }

        return true;
    }

    /// <summary>
    /// Receives a whole message into <paramref name="message"/> from frame <paramref name="nextFrame"/> on: the first
    /// with <paramref name="firstFlags"/>, the others blocking — libzmq delivers a multipart message whole, so once
    /// its first frame is here the others are too. Starting at frame 0 replaces what the message held.
    /// </summary>
    /// <returns>True when the last frame arrived; false when libzmq refused frame <paramref name="nextFrame"/> (at 0 the message is left empty).</returns>
    internal static bool TryReceive(nint socket, MultipartMessage message, ref int nextFrame, int firstFlags)
    {
        if (nextFrame == 0)
        {
            message.ResetForReceive();
        }

        while (true)
        {
            Message frame = message.NextFrameForReceive(nextFrame);
            fixed (ZmqMsg* msg = &frame.Native)
            {
                if (LibZmq.MsgRecv(msg, socket, nextFrame == 0 ? firstFlags : 0) < 0)
                {
                    if (nextFrame == 0)
                    {
                        message.ResetForReceive();
                    }

                    return false;
                }
            }

            frame.MarkFilled();
            nextFrame++;
            if (!frame.More)
            {
                return true;
            }
        }
    }

    /// <summary>
    /// Claims <paramref name="frames"/> for one synchronous send or receive (see <see cref="Message.TryEnterCall"/>): a
    /// <see cref="MultipartMessage"/> as a whole, a caller's list of messages frame by frame. Give them back with <see cref="ExitCall"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">Another call (on another thread, or an asynchronous one) is using them.</exception>
    internal static void EnterCall(IReadOnlyList<Message> frames)
    {
        if (frames is MultipartMessage multipart)
        {
            if (!multipart.TryEnterCall(multipart.Generation))
            {
                ThrowHelper.ThrowInvalidOperation(
                    "This MultipartMessage is in use by another call: another thread's send or receive, or an asynchronous " +
                    "send or receive that has not completed. Give each thread (and each pending operation) its own.");
            }

            return;
        }

        int entered = 0;
        try
        {
            for (; entered < frames.Count; entered++)
            {
                frames[entered].EnterCall();
            }
        }
        catch
        {
            for (int i = 0; i < entered; i++)
            {
                frames[i].ExitCall();
            }

            throw;
        }
    }

    /// <summary>Gives back what <see cref="EnterCall"/> claimed.</summary>
    internal static void ExitCall(IReadOnlyList<Message> frames)
    {
        if (frames is MultipartMessage multipart)
        {
            multipart.ExitCall();
            return;
        }

        for (int i = 0; i < frames.Count; i++)
        {
            frames[i].ExitCall();
        }
    }
}
