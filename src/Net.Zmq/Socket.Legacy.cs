using System.ComponentModel;
using System.Runtime.Versioning;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// Members kept so that code written for the first Net.Zmq, or against older names of this one, still compiles. Each
/// is hidden from IntelliSense and obsolete, and its message names what to use instead.
/// </summary>
public sealed partial class Socket
{
    /// <summary>
    /// Receives one frame into <paramref name="message"/>, as <see cref="Recv(Message, RecvFlags)"/> does. The
    /// <paramref name="expectedSize"/> of code written for the first Net.Zmq (which sized a pooled receive buffer with it)
    /// is checked but not needed: libzmq provides the frame's memory, so frames of any size arrive whole, uncopied.
    /// </summary>
    /// <returns>True when a frame was received; false only under <see cref="RecvFlags.DontWait"/> when none is waiting.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expectedSize"/> is negative.</exception>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("The expected size is not needed: frames of any size arrive whole. Use Recv(Message, RecvFlags) instead.")]
    public bool Recv(Message message, int expectedSize, RecvFlags flags = RecvFlags.None)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(expectedSize);
        return Recv(message, flags);
    }

    /// <summary>
    /// Receives one frame, blocking until it arrives, and returns a copy of it in a message rented from
    /// <see cref="MessagePool.Shared"/>; disposing the message returns its block to the pool.
    /// </summary>
    /// <remarks>
    /// <b>Warning:</b> a span from <see cref="Message.Data"/> must not be read after the message is disposed: the block
    /// goes back to the pool and the next rental overwrites it. Copy with <see cref="Message.ToArray"/> to keep the bytes.
    /// </remarks>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("ReceiveWithPool copies every frame into a pooled block. Use Recv(Message, RecvFlags) with one reused Message instead: no copy, no pool.")]
    public unsafe Message ReceiveWithPool()
    {
        TryRecvCopy(out Message? pooled, RecvFlags.None, NoDeadline, &CopyToPool);
        return pooled!;
    }

    [Obsolete("Serves ReceiveWithPool only.")]
    private static Message CopyToPool(ReadOnlySpan<byte> bytes)
    {
        Message pooled = MessagePool.Shared.Rent(bytes.Length);
        bytes.CopyTo(pooled.Data);
        return pooled;
    }

    /// <summary>The former name of <see cref="RecvAllAsync(CancellationToken)"/>, which it calls.</summary>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("Use RecvAllAsync instead: receive calls are named Recv throughout Net.Zmq.")]
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public IAsyncEnumerable<Message> ReceiveAllAsync(CancellationToken cancellationToken = default) =>
        RecvAllAsync(cancellationToken);

    /// <summary>The former name of <see cref="RecvAllMultipartAsync(CancellationToken)"/>, which it calls.</summary>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("Use RecvAllMultipartAsync instead: receive calls are named Recv throughout Net.Zmq.")]
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public IAsyncEnumerable<MultipartMessage> ReceiveAllMultipartAsync(CancellationToken cancellationToken = default) =>
        RecvAllMultipartAsync(cancellationToken);
}
