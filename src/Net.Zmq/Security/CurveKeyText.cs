using Net.Zmq.Interop;

namespace Net.Zmq.Security;

/// <summary>CURVE keys between 32 bytes and 40 Z85 characters, through libzmq's own Z85 functions.</summary>
internal static unsafe class CurveKeyText
{
    internal static string Encode(ReadOnlySpan<byte> key)
    {
        byte* text = stackalloc byte[41];
        fixed (byte* data = key)
        {
            LibZmq.Z85Encode(text, data, 32);
        }

        return new string((sbyte*)text, 0, 40);
    }

    internal static bool TryDecode(string text, Span<byte> key)
    {
        byte* source = stackalloc byte[41];
        for (int i = 0; i < 40; i++)
        {
            if (text[i] > 127)
            {
                return false;
            }

            source[i] = (byte)text[i];
        }

        source[40] = 0;
        byte* decoded = stackalloc byte[32];
        if (LibZmq.Z85Decode(decoded, source) is null)
        {
            return false;
        }

        new ReadOnlySpan<byte>(decoded, 32).CopyTo(key);
        return true;
    }

    internal static bool TryDecode(string text, out byte[] key)
    {
        key = new byte[32];
        return text.Length == 40 && TryDecode(text, key.AsSpan());
    }
}
