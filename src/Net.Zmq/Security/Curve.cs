using System.Diagnostics.CodeAnalysis;
using System.Security.Cryptography;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq.Security;

/// <summary>
/// CURVE key helpers (CurveZMQ, RFC 26): generate key pairs and derive a public key from a secret key. Keys are
/// 32 bytes, or 40 characters of <see cref="Z85"/> text. Configure sockets with
/// <see cref="Socket.MakeCurveServer(string)"/> and <see cref="Socket.MakeCurveClient(CurveKeyPair, string)"/>.
/// </summary>
public static class Curve
{
    /// <summary>The length of a CURVE key in bytes (32).</summary>
    public const int KeyLength = 32;

    /// <summary>The length of a CURVE key in Z85 text (40 characters).</summary>
    public const int KeyTextLength = 40;

    /// <summary>Whether the loaded libzmq supports CURVE (<c>zmq_has("curve")</c>).</summary>
    public static bool IsSupported => Context.Has("curve");

    /// <summary>Generates a new random key pair (<c>zmq_curve_keypair</c>).</summary>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    /// <exception cref="ZmqException">libzmq could not generate the keys.</exception>
    public static unsafe CurveKeyPair GenerateKeyPair()
    {
        ThrowIfUnsupported();
        byte* publicText = stackalloc byte[KeyTextLength + 1];
        byte* secretText = stackalloc byte[KeyTextLength + 1];
        try
        {
            if (LibZmq.CurveKeypair(publicText, secretText) != 0)
            {
                int errorNumber = LibZmq.Errno();
                ThrowFailed(errorNumber, "Generating a CURVE key pair (zmq_curve_keypair)");
            }

            return new CurveKeyPair(
                AsciiToString(new ReadOnlySpan<byte>(publicText, KeyTextLength)),
                AsciiToString(new ReadOnlySpan<byte>(secretText, KeyTextLength)));
        }
        finally
        {
            CryptographicOperations.ZeroMemory(new Span<byte>(secretText, KeyTextLength + 1));
        }
    }

    /// <summary>Derives the public key that belongs to <paramref name="secretKey"/>, both as Z85 text (<c>zmq_curve_public</c>).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="secretKey"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="secretKey"/> is not 40 characters of valid Z85 text.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    public static string DerivePublicKey(string secretKey)
    {
        byte[] secret = DecodeKey(secretKey, nameof(secretKey));
        try
        {
            Span<char> publicText = stackalloc char[KeyTextLength];
            DerivePublicKeyText(secret, publicText);
            return new string(publicText);
        }
        finally
        {
            CryptographicOperations.ZeroMemory(secret);
        }
    }

    /// <summary>Derives the 32-byte public key that belongs to the 32-byte <paramref name="secretKey"/> (<c>zmq_curve_public</c>).</summary>
    /// <exception cref="ArgumentException"><paramref name="secretKey"/> is not 32 bytes long.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    public static byte[] DerivePublicKey(ReadOnlySpan<byte> secretKey)
    {
        if (secretKey.Length != KeyLength)
        {
            ThrowHelper.ThrowArgument(
                $"A CURVE secret key is {KeyLength} bytes; {secretKey.Length} bytes were given.", nameof(secretKey));
        }

        Span<char> publicText = stackalloc char[KeyTextLength];
        DerivePublicKeyText(secretKey, publicText);
        return Z85.Decode(publicText);
    }

    /// <summary>Checks that <paramref name="key"/> is a CURVE key in Z85 text and returns its 32 bytes.</summary>
    internal static byte[] DecodeKey(string key, string paramName)
    {
        ArgumentNullException.ThrowIfNull(key, paramName);
        if (key.Length != KeyTextLength)
        {
            ThrowHelper.ThrowArgument(
                $"A CURVE key in text form is {KeyTextLength} Z85 characters; {key.Length} characters were given.", paramName);
        }

        byte[] bytes = new byte[KeyLength];
        Z85.Decode(key, bytes, paramName);
        return bytes;
    }

    private static unsafe void DerivePublicKeyText(ReadOnlySpan<byte> secretKey, Span<char> publicText)
    {
        ThrowIfUnsupported();
        Span<char> secretChars = stackalloc char[KeyTextLength];
        byte* secretText = stackalloc byte[KeyTextLength + 1];
        byte* publicBytes = stackalloc byte[KeyTextLength + 1];
        try
        {
            Z85.Encode(secretKey, secretChars);
            for (int i = 0; i < KeyTextLength; i++)
            {
                secretText[i] = (byte)secretChars[i];
            }

            secretText[KeyTextLength] = 0;
            if (LibZmq.CurvePublic(publicBytes, secretText) != 0)
            {
                int errorNumber = LibZmq.Errno();
                ThrowFailed(errorNumber, "Deriving a CURVE public key (zmq_curve_public)");
            }

            for (int i = 0; i < KeyTextLength; i++)
            {
                publicText[i] = (char)publicBytes[i];
            }
        }
        finally
        {
            CryptographicOperations.ZeroMemory(new Span<byte>(secretText, KeyTextLength + 1));
            secretChars.Clear();
        }
    }

    /// <summary>Throws <see cref="NotSupportedException"/>, saying what to install, when libzmq lacks CURVE.</summary>
    internal static void ThrowIfUnsupported()
    {
        if (!IsSupported)
        {
            ThrowNotSupported();
        }
    }

    private static void ThrowFailed(int errorNumber, string operation)
    {
        if (errorNumber == ZmqError.ENOTSUP)
        {
            ThrowNotSupported();
        }

        ThrowHelper.ThrowZmq(errorNumber, operation);
    }

    [DoesNotReturn]
    private static void ThrowNotSupported() =>
        throw new NotSupportedException(
            $"The loaded libzmq {Context.Version} was built without CURVE support (zmq_has(\"curve\") is false). " +
            "Install a libzmq built with libsodium or its own tweetnacl (Debian's libzmq5 has it), or set " +
            $"{NativeLibraryLoader.PathVariable} to one.");

    private static string AsciiToString(ReadOnlySpan<byte> text)
    {
        Span<char> chars = stackalloc char[KeyTextLength];
        for (int i = 0; i < text.Length; i++)
        {
            chars[i] = (char)text[i];
        }

        return new string(chars[..text.Length]);
    }
}
