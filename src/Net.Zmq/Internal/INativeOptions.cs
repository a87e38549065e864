namespace Net.Zmq.Internal;

/// <summary>
/// What <see cref="SocketOptionCodec"/> needs of a socket: libzmq's two option calls, each made as a call on the
/// socket (the socket claims itself around them), and its type for the texts of errors.
/// </summary>
internal unsafe interface INativeOptions
{
    /// <summary>The socket's type, named in error messages.</summary>
    SocketType Type { get; }

    /// <summary><c>zmq_setsockopt</c> with <paramref name="size"/> bytes at <paramref name="value"/>; throws when libzmq refuses.</summary>
    void Set(SocketOption option, void* value, int size);

    /// <summary><c>zmq_getsockopt</c> into <paramref name="capacity"/> bytes at <paramref name="value"/>; returns 0, or the error number (EINTR is retried).</summary>
    int TryGet(SocketOption option, void* value, int capacity, out int size);
}
