using System.Buffers.Binary;
using Net.Zmq.Internal;

namespace Net.Zmq.Security;

/// <summary>
/// Z85, ZeroMQ's printable encoding of binary data (RFC 32/Z85): every 4 bytes, read as a big-endian number,
/// become 5 characters of an 85-character alphabet. libzmq uses it for CURVE keys (32 bytes ⇔ 40 characters).
/// Implemented in managed code: linear time, no native call, and the span overloads allocate nothing.
/// </summary>
/// <remarks>
/// Every invalid input is reported with an <see cref="ArgumentException"/> whose message says what is wrong and
/// where: a length that is not a multiple of 4 (bytes) or 5 (characters), a character outside the alphabet, a
/// group of 5 characters whose value exceeds 2³²−1, or a destination that is too small.
/// </remarks>
public static class Z85
{
    private const string Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    private const byte Invalid = 0xFF;

    /// <summary>The value of each ASCII character in the alphabet, or <see cref="Invalid"/>.</summary>
    private static readonly byte[] s_values = BuildValues();

    /// <summary>The number of characters <paramref name="byteCount"/> bytes encode to (5 per 4 bytes).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="byteCount"/> is negative, or the result would exceed <see cref="int.MaxValue"/>.</exception>
    /// <exception cref="ArgumentException"><paramref name="byteCount"/> is not a multiple of 4.</exception>
    public static int GetEncodedLength(int byteCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(byteCount);
        return GetEncodedLength(byteCount, nameof(byteCount));
    }

    /// <summary>The number of bytes <paramref name="charCount"/> characters of Z85 text decode to (4 per 5 characters).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="charCount"/> is negative.</exception>
    /// <exception cref="ArgumentException"><paramref name="charCount"/> is not a multiple of 5.</exception>
    public static int GetDecodedLength(int charCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(charCount);
        return GetDecodedLength(charCount, nameof(charCount));
    }

    /// <summary>Encodes <paramref name="data"/> (a multiple of 4 bytes long) as Z85 text.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    /// <exception cref="ArgumentException">The length of <paramref name="data"/> is not a multiple of 4.</exception>
    public static string Encode(byte[] data)
    {
        ArgumentNullException.ThrowIfNull(data);
        return Encode(data.AsSpan());
    }

    /// <summary>Encodes <paramref name="data"/> (a multiple of 4 bytes long) as Z85 text.</summary>
    /// <exception cref="ArgumentException">The length of <paramref name="data"/> is not a multiple of 4.</exception>
    public static unsafe string Encode(ReadOnlySpan<byte> data)
    {
        int length = GetEncodedLength(data.Length, nameof(data));
        if (length == 0)
        {
            return string.Empty;
        }

        // The data stays pinned while string.Create runs, so the callback can read it through a pointer.
        fixed (byte* p = data)
        {
            return string.Create(length, ((nint)p, data.Length), static (destination, source) =>
                EncodeCore(new ReadOnlySpan<byte>((byte*)source.Item1, source.Item2), destination));
        }
    }

    /// <summary>Encodes <paramref name="data"/> (a multiple of 4 bytes long) into <paramref name="destination"/> without allocating.</summary>
    /// <returns>The number of characters written: <c>data.Length / 4 * 5</c>.</returns>
    /// <exception cref="ArgumentException">The length of <paramref name="data"/> is not a multiple of 4, or <paramref name="destination"/> is too small.</exception>
    public static int Encode(ReadOnlySpan<byte> data, Span<char> destination)
    {
        int length = GetEncodedLength(data.Length, nameof(data));
        if (destination.Length < length)
        {
            ThrowHelper.ThrowArgument(
                $"The destination holds {destination.Length} characters; the Z85 text of {data.Length} bytes needs {length}.",
                nameof(destination));
        }

        EncodeCore(data, destination[..length]);
        return length;
    }

    /// <summary>Decodes Z85 <paramref name="text"/> (a multiple of 5 characters long) into a new array.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    /// <exception cref="ArgumentException">
    /// The length is not a multiple of 5, a character is not in the Z85 alphabet, or a group of 5 characters
    /// stands for a value above 2³²−1; the message gives the position, never the characters (the text may be a secret key).
    /// </exception>
    public static byte[] Decode(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return Decode(text.AsSpan());
    }

    /// <summary>Decodes Z85 <paramref name="text"/> (a multiple of 5 characters long) into a new array.</summary>
    /// <exception cref="ArgumentException">
    /// The length is not a multiple of 5, a character is not in the Z85 alphabet, or a group of 5 characters
    /// stands for a value above 2³²−1.
    /// </exception>
    public static byte[] Decode(ReadOnlySpan<char> text)
    {
        int length = GetDecodedLength(text.Length, nameof(text));
        if (length == 0)
        {
            return [];
        }

        byte[] data = GC.AllocateUninitializedArray<byte>(length);
        DecodeCore(text, data, nameof(text));
        return data;
    }

    /// <summary>Decodes Z85 <paramref name="text"/> into <paramref name="destination"/> without allocating.</summary>
    /// <returns>The number of bytes written: <c>text.Length / 5 * 4</c>.</returns>
    /// <exception cref="ArgumentException">
    /// The length is not a multiple of 5, a character is not in the Z85 alphabet, a group of 5 characters stands
    /// for a value above 2³²−1, or <paramref name="destination"/> is too small. <paramref name="destination"/> may
    /// have been partly written when the text is invalid.
    /// </exception>
    public static int Decode(ReadOnlySpan<char> text, Span<byte> destination)
    {
        int length = GetDecodedLength(text.Length, nameof(text));
        if (destination.Length < length)
        {
            ThrowHelper.ThrowArgument(
                $"The destination holds {destination.Length} bytes; {text.Length} characters of Z85 text decode to {length}.",
                nameof(destination));
        }

        DecodeCore(text, destination[..length], nameof(text));
        return length;
    }

    /// <summary>Decodes text already known to be a multiple of 5 characters long; errors name <paramref name="paramName"/>.</summary>
    internal static void Decode(ReadOnlySpan<char> text, Span<byte> destination, string paramName) =>
        DecodeCore(text, destination, paramName);

    private static int GetEncodedLength(int byteCount, string paramName)
    {
        if (byteCount % 4 != 0)
        {
            ThrowHelper.ThrowArgument(
                $"Z85 encodes whole groups of 4 bytes; {byteCount} bytes is not a multiple of 4. Pad the data first.", paramName);
        }

        long chars = (long)byteCount / 4 * 5;
        if (chars > int.MaxValue)
        {
            ThrowHelper.ThrowArgumentOutOfRange(paramName, byteCount, "The Z85 text of this many bytes would be longer than int.MaxValue characters.");
        }

        return (int)chars;
    }

    private static int GetDecodedLength(int charCount, string paramName)
    {
        if (charCount % 5 != 0)
        {
            ThrowHelper.ThrowArgument(
                $"Z85 text comes in whole groups of 5 characters; {charCount} characters is not a multiple of 5.", paramName);
        }

        return charCount / 5 * 4;
    }

    private static void EncodeCore(ReadOnlySpan<byte> data, Span<char> destination)
    {
        ReadOnlySpan<char> alphabet = Alphabet;
        int c = 0;
        for (int i = 0; i < data.Length; i += 4)
        {
            uint value = BinaryPrimitives.ReadUInt32BigEndian(data.Slice(i, 4));
            Span<char> group = destination.Slice(c, 5);
            for (int k = 4; k >= 0; k--)
            {
                (value, uint digit) = Math.DivRem(value, 85u);
                group[k] = alphabet[(int)digit];
            }

            c += 5;
        }
    }

    private static void DecodeCore(ReadOnlySpan<char> text, Span<byte> destination, string paramName)
    {
        int errorPosition = TryDecodeCore(text, destination, out bool overflow);
        if (errorPosition >= 0)
        {
            ThrowInvalidText(errorPosition, overflow, paramName);
        }
    }

    /// <summary>Decodes text of a length known to be valid into a large enough destination; false when the text is not Z85.</summary>
    internal static bool TryDecode(ReadOnlySpan<char> text, Span<byte> destination) =>
        text.Length % 5 == 0 && destination.Length >= text.Length / 5 * 4 && TryDecodeCore(text, destination, out _) < 0;

    /// <summary>Returns -1 on success, or the position of the first bad character (or of the group that overflows).</summary>
    private static int TryDecodeCore(ReadOnlySpan<char> text, Span<byte> destination, out bool overflow)
    {
        overflow = false;
        byte[] values = s_values;
        int b = 0;
        for (int i = 0; i < text.Length; i += 5)
        {
            ReadOnlySpan<char> group = text.Slice(i, 5);
            ulong value = 0;
            for (int k = 0; k < 5; k++)
            {
                char ch = group[k];
                byte digit = ch < values.Length ? values[ch] : Invalid;
                if (digit == Invalid)
                {
                    return i + k;
                }

                value = (value * 85) + digit;
            }

            if (value > uint.MaxValue)
            {
                overflow = true;
                return i;
            }

            BinaryPrimitives.WriteUInt32BigEndian(destination.Slice(b, 4), (uint)value);
            b += 4;
        }

        return -1;
    }

    // The text may be a secret key: messages give the position, never the characters.
    private static void ThrowInvalidText(int position, bool overflow, string paramName) =>
        ThrowHelper.ThrowArgument(
            overflow
                ? $"The Z85 group of 5 characters at position {position} stands for a value above 2^32-1, so it does not encode 4 bytes."
                : $"The character at position {position} is not in the Z85 alphabet.",
            paramName);

    private static byte[] BuildValues()
    {
        var values = new byte[128];
        values.AsSpan().Fill(Invalid);
        for (int i = 0; i < Alphabet.Length; i++)
        {
            values[Alphabet[i]] = (byte)i;
        }

        return values;
    }
}
