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
        return errorNumber == Errno.ETERM ? new ContextTerminatedException(text) : new ZmqException(errorNumber, text);
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
        if (errorNumber != Errno.EAGAIN)
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

    /// <summary>
    /// Throws for a Bind, Connect, Unbind or Disconnect libzmq refused; for EINVAL it says what is wrong with
    /// <paramref name="endpoint"/> (libzmq only says "Invalid argument").
    /// </summary>
    [DoesNotReturn]
    internal static void ThrowEndpointFailed(int errorNumber, string operation, string endpoint)
    {
        if (errorNumber == Errno.EINVAL && EndpointProblem(endpoint) is { } problem)
        {
            throw new ZmqException(errorNumber, $"{operation} failed: {Describe(errorNumber)}. {problem}");
        }

        ThrowZmq(errorNumber, operation);
    }

    /// <summary>What is wrong with an endpoint libzmq refused with EINVAL, when it can be told from its text.</summary>
    private static string? EndpointProblem(string endpoint)
    {
        int separator = endpoint.IndexOf("://", StringComparison.Ordinal);
        if (separator <= 0)
        {
            return "An endpoint is transport://address, for example tcp://127.0.0.1:5555, ipc:///tmp/feed or inproc://name.";
        }

        string transport = endpoint[..separator];
        string address = endpoint[(separator + 3)..];
        if (address.Length == 0)
        {
            return $"The endpoint has no address after {transport}://.";
        }

        if (transport is not ("tcp" or "ws" or "wss" or "udp"))
        {
            return null;
        }

        // The port follows the last colon, after an IPv6 address's closing bracket; a ws path follows the port.
        int portStart = address.LastIndexOf(':') + 1;
        if (portStart == 0 || portStart <= address.LastIndexOf(']'))
        {
            return $"A {transport} endpoint needs a port: {transport}://host:port, or {transport}://host:* to bind a free one (read it back from LastEndpoint).";
        }

        string port = address[portStart..];
        int slash = port.IndexOf('/');
        port = slash >= 0 ? port[..slash] : port;
        if (port != "*" && !ushort.TryParse(port, out _))
        {
            return $"'{port}' is not a port: give a number up to 65535, or * to bind a free one.";
        }

        return null;
    }

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
    internal static void ThrowSinglePart(SocketType type, bool conflating, string paramName) =>
        throw new ArgumentException(SinglePartReason(type, conflating, "SendFlags.SendMore and multipart sends are refused"), paramName);

    /// <summary>Why a socket of <paramref name="type"/> takes single-part messages only: a draft type, or Conflate set on it (<paramref name="conflating"/>).</summary>
    internal static string SinglePartReason(SocketType type, bool conflating, string refused) => conflating
        ? $"This {type} socket has SocketOption.Conflate set, so it sends single-part messages only: {refused}, and " +
          "nothing was queued. A conflating queue keeps one frame, not one message, and libzmq aborts the whole process " +
          "(an assertion in fq.cpp) when a socket with Conflate receives a multipart message. Put the whole payload in one " +
          "frame, or do not set Conflate."
        : $"A {type} socket sends single-part messages only: {refused}, and nothing was queued. Put the whole " +
          "payload in one frame.";

    /// <summary>libzmq's text for <paramref name="errorNumber"/> with its name and number: "Invalid argument (EINVAL, errno 22)".</summary>
    internal static unsafe string Describe(int errorNumber)
    {
        byte* text = LibZmq.StrError(errorNumber);
        string description = text is null ? "unknown error" : Marshal.PtrToStringUTF8((nint)text) ?? "unknown error";
        return ErrorNames.Name(errorNumber) is { } name
            ? $"{description} ({name}, errno {errorNumber})"
            : $"{description} (errno {errorNumber})";
    }

    private static string Hint(int errorNumber) => ErrorNames.Cause(errorNumber) is { Length: > 0 } cause ? ". " + cause : "";
}
