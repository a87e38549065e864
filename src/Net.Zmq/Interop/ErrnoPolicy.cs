using System.Runtime.CompilerServices;

namespace Net.Zmq.Interop;

/// <summary>What the loop that made a failed libzmq call does next.</summary>
internal enum AfterFailure : byte
{
    /// <summary>EINTR: a signal interrupted the call; make it again.</summary>
    Retry,

    /// <summary>EAGAIN on a call that was not to wait: nothing to receive, or no room to send, right now.</summary>
    NothingYet,

    /// <summary>Anything else: the caller reports the error.</summary>
    Fail,
}

/// <summary>The one errno policy of every libzmq call loop in Net.Zmq.</summary>
internal static class ErrnoPolicy
{
    /// <summary>Classifies <paramref name="errorNumber"/> from a call made with (<paramref name="dontWait"/>) or without DontWait.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static AfterFailure Classify(int errorNumber, bool dontWait) =>
        errorNumber == Errno.EINTR ? AfterFailure.Retry
        : dontWait && errorNumber == Errno.EAGAIN ? AfterFailure.NothingYet
        : AfterFailure.Fail;
}
