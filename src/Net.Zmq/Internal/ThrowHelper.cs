using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using Net.Zmq.Interop;

namespace Net.Zmq.Internal;

/// <summary>Builds and throws exceptions outside hot methods, so those stay small and inlinable.</summary>
internal static class ThrowHelper
{
    /// <summary>Creates the exception for a failed libzmq call; ETERM becomes <see cref="ContextTerminatedException"/>.</summary>
    internal static ZmqException CreateZmqException(int errorNumber, string operation)
    {
        string text = $"{operation} failed: {Describe(errorNumber)}{Hint(errorNumber)}";
        return errorNumber == ZmqError.ETERM ? new ContextTerminatedException(text) : new ZmqException(errorNumber, text);
    }

    [DoesNotReturn]
    internal static void ThrowZmq(int errorNumber, string operation) => throw CreateZmqException(errorNumber, operation);

    /// <summary>
    /// Creates the exception for a send or receive libzmq refused. EAGAIN here means a blocking call ran out of its
    /// SendTimeout/ReceiveTimeout (calls that were not to wait report EAGAIN as a result, never as an exception).
    /// </summary>
    internal static ZmqException CreateTransferException(int errorNumber, SocketType type, Direction direction)
    {
        string operation = direction == Direction.Send ? "Send" : "Receive";
        if (errorNumber != ZmqError.EAGAIN)
        {
            return CreateZmqException(errorNumber, $"{operation} on a {type} socket");
        }

        return new ZmqException(errorNumber, direction == Direction.Send
            ? $"Send on a {type} socket timed out (SendTimeout) before the message could be queued: {Describe(errorNumber)}. " +
              "Use SendFlags.DontWait to get false instead of an exception."
            : $"Receive on a {type} socket timed out (ReceiveTimeout) with no message: {Describe(errorNumber)}. " +
              "Use RecvFlags.DontWait or a Try method to get a result instead of an exception.");
    }

    [DoesNotReturn]
    internal static void ThrowTransferFailed(int errorNumber, SocketType type, Direction direction) =>
        throw CreateTransferException(errorNumber, type, direction);

    [DoesNotReturn]
    internal static void ThrowObjectDisposed(object instance) => throw new ObjectDisposedException((instance as Type ?? instance.GetType()).FullName);

    [DoesNotReturn]
    internal static void ThrowConcurrentUse(SocketType type, int otherThread) =>
        throw new InvalidOperationException(
            $"The {type} socket is in use by thread {otherThread} while thread {Environment.CurrentManagedThreadId} " +
            "called it. libzmq sockets are not thread-safe, and two calls at once corrupt them: use each socket from one " +
            "thread at a time (hand it over through a lock or a queue), give each thread its own socket, or use a " +
            "thread-safe draft socket (Server/Client, Radio/Dish, Scatter/Gather, Peer, Channel).");

    [DoesNotReturn]
    internal static void ThrowHeldElsewhere(SocketType type, int pollingThread) =>
        throw new InvalidOperationException(
            $"The {type} socket is held by a Poller, an EventLoop or a Proxy that polls it on thread {pollingThread}, and " +
            $"thread {Environment.CurrentManagedThreadId} called it. A held socket belongs to the thread that polls it: call " +
            "it there (after Poll returns, or in the EventLoop's handlers), or remove it from the Poller or the EventLoop first.");

    [DoesNotReturn]
    internal static void ThrowArgument(string message, string paramName) => throw new ArgumentException(message, paramName);

    [DoesNotReturn]
    internal static void ThrowArgumentOutOfRange(string paramName, object? value, string message) =>
        throw new ArgumentOutOfRangeException(paramName, value, message);

    [DoesNotReturn]
    internal static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);

    /// <summary>The message of every <see cref="NotSupportedException"/> for a draft feature the loaded libzmq lacks.</summary>
    internal static string DraftMissing(string feature) =>
        $"{feature} needs a libzmq built with the draft API, such as the one the Net.Zmq package bundles; " +
        $"the loaded libzmq {Context.Version} has no draft API. Context.Has(\"draft\") tells in advance.";

    [DoesNotReturn]
    internal static void ThrowDraftMissing(string feature) => throw new NotSupportedException(DraftMissing(feature));

    [DoesNotReturn]
    internal static void ThrowSinglePart(Socket socket, string paramName) =>
        throw new ArgumentException(SinglePartReason(socket, "SendFlags.SendMore and multipart sends are refused"), paramName);

    /// <summary>Why <paramref name="socket"/> takes single-part messages only: a draft type, or Conflate set on it.</summary>
    internal static string SinglePartReason(Socket socket, string refused) => socket.IsConflating
        ? $"This {socket.Type} socket has SocketOption.Conflate set, so it sends single-part messages only: {refused}, and " +
          "nothing was queued. A conflating queue keeps one frame, not one message, and libzmq aborts the whole process " +
          "(an assertion in fq.cpp) when a socket with Conflate receives a multipart message. Put the whole payload in one " +
          "frame, or do not set Conflate."
        : $"A {socket.Type} socket sends single-part messages only: {refused}, and nothing was queued. Put the whole " +
          "payload in one frame.";

    internal static unsafe string Describe(int errorNumber)
    {
        byte* text = LibZmq.StrError(errorNumber);
        string description = text is null ? "unknown error" : Marshal.PtrToStringUTF8((nint)text) ?? "unknown error";
        return $"{description} (errno {errorNumber})";
    }

    private static string Hint(int errorNumber)
    {
        if (errorNumber == ZmqError.EFSM)
        {
            return ". The socket's pattern forbids this operation now: a REQ socket must receive the reply before it sends again, a REP socket must reply before it receives again.";
        }

        if (errorNumber == ZmqError.ENOTSUP)
        {
            return ". This socket type does not support the operation (for example receiving on PUB or sending on SUB).";
        }

        if (errorNumber == ZmqError.EPROTONOSUPPORT)
        {
            return ". Use a transport this libzmq supports: tcp, ipc, inproc, pgm/epgm, tipc or vmci (see Context.Has).";
        }

        if (errorNumber == ZmqError.EHOSTUNREACH)
        {
            return ". No connected peer has that routing id (RouterMandatory is set).";
        }

        if (errorNumber == ZmqError.ETERM)
        {
            return ". The context was shut down or disposed; close the socket.";
        }

        return "";
    }
}
