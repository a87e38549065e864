using System.Buffers;
using System.Text;

namespace Net.Zmq.Internal;

/// <summary>A null-terminated UTF-8 copy of a string in a pooled buffer, for passing C strings to libzmq.</summary>
internal readonly ref struct Utf8Z
{
    private readonly byte[] _buffer;

    internal Utf8Z(string text)
    {
        int length = Encoding.UTF8.GetByteCount(text);
        _buffer = ArrayPool<byte>.Shared.Rent(length + 1);
        Encoding.UTF8.GetBytes(text, _buffer);
        _buffer[length] = 0;
        Bytes = _buffer.AsSpan(0, length + 1);
    }

    /// <summary>The encoded text including the terminating zero.</summary>
    internal ReadOnlySpan<byte> Bytes { get; }

    public void Dispose() => ArrayPool<byte>.Shared.Return(_buffer);
}
