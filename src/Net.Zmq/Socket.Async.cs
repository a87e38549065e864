using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.Versioning;
using System.Text;
using Net.Zmq.Async;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// Asynchronous sends and receives. They complete at once when the socket is ready; otherwise they wait, without a
/// thread, until libzmq signals the socket (<c>ZMQ_FD</c>, watched for the whole process by a few "Net.Zmq reactor"
/// threads: epoll on Linux, WSAPoll on Windows). A socket runs at most one asynchronous send and one asynchronous receive at a time; starting a second
/// one in the same direction before the first completed throws <see cref="InvalidOperationException"/>.
/// </summary>
/// <remarks>
/// <para>The code after an <c>await</c> of a parked operation resumes on the thread pool (or on the captured
/// <see cref="SynchronizationContext"/>, as usual for <c>await</c>), or, with the AppContext switch
/// <c>Net.Zmq.Async.InlineContinuations</c> on, on the reactor thread that completed it while another one goes on
/// waiting; never inside a libzmq call or the socket's gate. Move long or blocking work off with
/// <c>Task.Run</c>.</para>
/// <para>Once a socket has been used asynchronously, its synchronous calls are serialised with the asynchronous ones,
/// never interleaved inside libzmq: a blocking <see cref="Recv(Span{byte}, RecvFlags)"/> holds the socket until it
/// returns, and a parked operation proceeds after it.</para>
/// <para>Disposing the socket completes its waiting operations with <see cref="ObjectDisposedException"/>; shutting
/// its context down completes them with <see cref="ContextTerminatedException"/>; cancelling the token completes
/// the operation with <see cref="OperationCanceledException"/> and leaves the socket usable (a cancelled receive
/// consumed nothing; a cancelled send queued nothing). Async operations need Linux or Windows; elsewhere (macOS) they
/// throw <see cref="PlatformNotSupportedException"/>, and the compiler warns (CA1416) at calls that can run there.</para>
/// <para>The draft sockets (<see cref="SocketType.Server"/> and the types after it) have no <c>ZMQ_FD</c>: every
/// asynchronous method on them throws <see cref="NotSupportedException"/> at once. Wait on them with a
/// <see cref="Poller"/> or with blocking calls and timeouts.</para>
/// </remarks>
public sealed partial class Socket
{
    /// <summary>Receives one frame into <paramref name="buffer"/>, waiting without a thread until one arrives.</summary>
    /// <returns>
    /// The frame's full size, as for <see cref="Recv(Span{byte}, RecvFlags)"/>: greater than <c>buffer.Length</c> when
    /// the frame was truncated to fit. <paramref name="buffer"/> must stay untouched until the operation completes.
    /// </returns>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous receive is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask<int> RecvAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        AsyncDriver().ReceiveAsync(buffer, cancellationToken);

    /// <summary>Receives one frame into <paramref name="buffer"/>; the result is as for <see cref="RecvAsync(Memory{byte}, CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask<int> RecvAsync(byte[] buffer, CancellationToken cancellationToken = default) =>
        AsyncDriverFor(buffer).ReceiveAsync(buffer, cancellationToken);

    /// <summary>
    /// Receives one frame, of any size, into <paramref name="message"/>, replacing what it held. Reuse one message
    /// across receives to allocate nothing.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous receive is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask RecvAsync(Message message, CancellationToken cancellationToken = default) =>
        AsyncDriverFor(message).ReceiveAsync(message, cancellationToken);

    /// <summary>Receives one frame and decodes it as UTF-8.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous receive is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask<string> RecvStringAsync(CancellationToken cancellationToken = default) =>
        ReceiveCopy(static message => message.ToString(), cancellationToken);

    /// <summary>Receives one frame as a new byte array, waiting without a thread until one arrives.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous receive is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask<byte[]> RecvBytesAsync(CancellationToken cancellationToken = default) =>
        ReceiveCopy(static message => message.ToArray(), cancellationToken);

    /// <summary>
    /// Receives a whole multipart message into <paramref name="message"/>, replacing its frames and reusing their
    /// <see cref="Message"/> objects.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous receive is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask RecvMultipartAsync(MultipartMessage message, CancellationToken cancellationToken = default) =>
        AsyncDriverFor(message).ReceiveAsync(message, cancellationToken);

    /// <summary>Receives a whole multipart message into a new <see cref="MultipartMessage"/>, which the caller disposes.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous receive is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask<MultipartMessage> RecvMultipartAsync(CancellationToken cancellationToken = default) =>
        ReceiveMultipart(MultipartMessage.ForCaller(), cancellationToken);

    /// <summary>
    /// Receives frames until cancelled, the socket is disposed or its context shut down, yielding each one in the
    /// same <see cref="Message"/>: read it (or <see cref="Message.Copy"/> it) before asking for the next.
    /// <see cref="Message.More"/> tells whether more frames of the same message follow.
    /// </summary>
    /// <remarks>
    /// <para>The loop ends quietly on disposal or context shutdown; cancellation ends it with <see cref="OperationCanceledException"/>.</para>
    /// <para>
    /// The same message is received into again when the loop asks for the next one, and disposed when the loop ends.
    /// <b>Warning: the bytes behind <see cref="Message.Data"/> belong to libzmq.</b> A span read after the message is
    /// next received into, sent, moved, copied into or disposed points at memory that may already be freed: reading
    /// it is undefined behaviour (an access violation that ends the process, or another message's bytes), even though
    /// the code compiles as safe C#. Consume the bytes before the next call, or keep a copy: <c>message.ToArray()</c>
    /// or <c>message.Data.ToArray()</c>. Never store the span, or a pointer taken from it, beyond that point.
    /// </para>
    /// </remarks>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public async IAsyncEnumerable<Message> RecvAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        using var message = new Message();
        while (true)
        {
            try
            {
                await RecvAsync(message, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex) when (EndsTheLoop(ex))
            {
                yield break;
            }

            yield return message;
        }
    }

    /// <summary>
    /// Receives whole multipart messages until cancelled, the socket is disposed or its context shut down, yielding
    /// each one in the same <see cref="MultipartMessage"/>: read it before asking for the next.
    /// </summary>
    /// <remarks>
    /// <para>The loop ends quietly on disposal or context shutdown; cancellation ends it with <see cref="OperationCanceledException"/>.</para>
    /// <para>
    /// The same multipart message, and its frames, are received into again when the loop asks for the next one, and
    /// disposed when the loop ends. <b>Warning: the bytes behind <see cref="Message.Data"/> belong to libzmq.</b> A span read after the message is
    /// next received into, sent, moved, copied into or disposed points at memory that may already be freed: reading
    /// it is undefined behaviour (an access violation that ends the process, or another message's bytes), even though
    /// the code compiles as safe C#. Consume the bytes before the next call, or keep a copy: <c>message.ToArray()</c>
    /// or <c>message.Data.ToArray()</c>. Never store the span, or a pointer taken from it, beyond that point.
    /// </para>
    /// </remarks>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public async IAsyncEnumerable<MultipartMessage> RecvAllMultipartAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        using var message = new MultipartMessage();
        while (true)
        {
            try
            {
                await RecvMultipartAsync(message, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex) when (EndsTheLoop(ex))
            {
                yield break;
            }

            yield return message;
        }
    }

    /// <summary>
    /// Sends <paramref name="data"/> as one frame, waiting without a thread while the socket cannot queue it (its
    /// high-water mark is reached, or no peer is connected yet). <paramref name="data"/> must stay untouched until
    /// the operation completes.
    /// </summary>
    /// <param name="data">The frame's bytes.</param>
    /// <param name="flags"><see cref="SendFlags.SendMore"/> for all but the last frame of a multipart message; <see cref="SendFlags.DontWait"/> is not accepted.</param>
    /// <param name="cancellationToken">Cancels the wait; nothing was queued when it does.</param>
    /// <exception cref="ArgumentException"><paramref name="flags"/> has <see cref="SendFlags.DontWait"/>.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous send is pending on this socket.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(ReadOnlyMemory<byte> data, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
        AsyncDriver(flags).SendAsync(data, flags, pooledArray: null, cancellationToken);

    /// <summary>Sends <paramref name="data"/> as one frame; see <see cref="SendAsync(ReadOnlyMemory{byte}, SendFlags, CancellationToken)"/>.</summary>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(ReadOnlyMemory<byte> data, CancellationToken cancellationToken) =>
        AsyncDriver().SendAsync(data, SendFlags.None, pooledArray: null, cancellationToken);

    /// <summary>Sends <paramref name="data"/> as one frame; see <see cref="SendAsync(ReadOnlyMemory{byte}, SendFlags, CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(byte[] data, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
        AsyncDriverFor(data, flags).SendAsync(data, flags, pooledArray: null, cancellationToken);

    /// <summary>Sends <paramref name="data"/> as one frame; see <see cref="SendAsync(ReadOnlyMemory{byte}, SendFlags, CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(byte[] data, CancellationToken cancellationToken) =>
        AsyncDriverFor(data).SendAsync(data, SendFlags.None, pooledArray: null, cancellationToken);

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/> as one frame; see <see cref="SendAsync(ReadOnlyMemory{byte}, SendFlags, CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(string text, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
        AsyncDriverFor(text, flags).SendAsync(text, flags, cancellationToken);

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/> as one frame; see <see cref="SendAsync(ReadOnlyMemory{byte}, SendFlags, CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(string text, CancellationToken cancellationToken) =>
        AsyncDriverFor(text).SendAsync(text, SendFlags.None, cancellationToken);

    /// <summary>
    /// Sends <paramref name="message"/> as one frame without copying it. When the operation completes the message is
    /// left empty (its content belongs to libzmq); if it fails or is cancelled, the message keeps its content.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="flags"/> has <see cref="SendFlags.DontWait"/>.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous send is pending on this socket, or the message was sent already and not filled again since.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(Message message, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
        AsyncDriverForSending(message, flags).SendAsync(message, flags, cancellationToken);

    /// <summary>Sends <paramref name="message"/> as one frame without copying it; see <see cref="SendAsync(Message, SendFlags, CancellationToken)"/>.</summary>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendAsync(Message message, CancellationToken cancellationToken) =>
        AsyncDriverForSending(message, SendFlags.None).SendAsync(message, SendFlags.None, cancellationToken);

    /// <summary>
    /// Sends every frame of <paramref name="message"/> as one multipart message, without copying. All frames are
    /// checked first; once the first frame is queued the message is sent whole, and cancellation no longer applies.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="message"/> has no frames.</exception>
    /// <exception cref="ObjectDisposedException">A frame, or the socket, was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another asynchronous send is pending on this socket, or the multipart message was sent already and not filled again since.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask SendMultipartAsync(MultipartMessage message, CancellationToken cancellationToken = default) =>
        AsyncDriverForSending(message).SendAsync(message, cancellationToken);

    /// <summary>The socket's async driver, created by the first asynchronous call.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="NotSupportedException">A draft socket, which has no <c>ZMQ_FD</c>.</exception>
    /// <exception cref="InvalidOperationException">A Poller or a running Proxy holds the socket.</exception>
    private SocketAsyncDriver AsyncDriver()
    {
        _gate.ThrowIfDisposed();
        return _gate.Driver ?? StartAsyncDriver();
    }

    /// <summary>Checks an argument (not null; a message not disposed) before the driver is created for it.</summary>
    private SocketAsyncDriver AsyncDriverFor(object argument, [CallerArgumentExpression(nameof(argument))] string? name = null)
    {
        ArgumentNullException.ThrowIfNull(argument, name);
        (argument as Message)?.ThrowIfDisposed();
        return AsyncDriver();
    }

    /// <summary>Checks a message to send (not null, not disposed, not sent already) before the driver is created for it.</summary>
    private SocketAsyncDriver AsyncDriverForSending(Message message, SendFlags flags)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.ThrowIfNotSendable();
        return AsyncDriver(flags);
    }

    /// <summary>The async driver for a send with <paramref name="flags"/>, refused first when this socket takes single-part messages only.</summary>
    private SocketAsyncDriver AsyncDriver(SendFlags flags)
    {
        ThrowIfRefused(flags);
        return AsyncDriver();
    }

    /// <summary>Checks an argument to send with <paramref name="flags"/> before the driver is created for it.</summary>
    private SocketAsyncDriver AsyncDriverFor(object argument, SendFlags flags, [CallerArgumentExpression(nameof(argument))] string? name = null)
    {
        ArgumentNullException.ThrowIfNull(argument, name);
        return AsyncDriver(flags);
    }

    /// <summary>Checks a multipart message to send (frames, single-part on draft sockets) before the driver is created for it.</summary>
    private SocketAsyncDriver AsyncDriverForSending(MultipartMessage message)
    {
        ValidateFrames(message, SendFlags.None);
        return AsyncDriver();
    }

    private SocketAsyncDriver StartAsyncDriver()
    {
        if (IsDraft)
        {
            // libzmq gives the thread-safe draft sockets no ZMQ_FD, the descriptor the reactor waits on.
            throw new NotSupportedException(
                $"The asynchronous methods need the socket's ZMQ_FD, which libzmq does not give a {Type} socket (a thread-safe " +
                "draft socket). Use the blocking calls with ReceiveTimeout/SendTimeout, the DontWait/Try calls, or a Poller; " +
                "a draft socket may also be used from several threads at once.");
        }

        return _gate.StartDriver();
    }

    /// <summary>Receives one frame into a message of its own and returns what <paramref name="copy"/> makes of it; the message is disposed either way.</summary>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private ValueTask<T> ReceiveCopy<T>(Func<Message, T> copy, CancellationToken cancellationToken)
    {
        var message = new Message();
        try
        {
            return CopyWhenReceived(RecvAsync(message, cancellationToken), message, copy);
        }
        catch
        {
            message.Dispose();
            throw;
        }
    }

    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private ValueTask<MultipartMessage> ReceiveMultipart(MultipartMessage message, CancellationToken cancellationToken)
    {
        try
        {
            return ReturnWhenReceived(RecvMultipartAsync(message, cancellationToken), message);
        }
        catch
        {
            message.Dispose();
            throw;
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<T> CopyWhenReceived<T>(ValueTask received, Message message, Func<Message, T> copy)
    {
        using (message)
        {
            await received.ConfigureAwait(false);
            return copy(message);
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<MultipartMessage> ReturnWhenReceived(ValueTask received, MultipartMessage message)
    {
        try
        {
            await received.ConfigureAwait(false);
            return message;
        }
        catch
        {
            message.Dispose();
            throw;
        }
    }

    private static bool EndsTheLoop(Exception exception) => exception is ObjectDisposedException or ContextTerminatedException;
}
