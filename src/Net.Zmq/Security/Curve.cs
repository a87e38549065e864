using System.Diagnostics.CodeAnalysis;
using System.Security.Cryptography;
using System.Text;
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

    // libzmq's key functions read and write keys as Z85 text with a terminating zero.
    private const int NativeTextLength = KeyTextLength + 1;

    // zmq_has("curve"), asked on first use: 0 not asked yet, 1 yes, -1 no.
    private static int s_supported;

    /// <summary>Whether the loaded libzmq supports CURVE (<c>zmq_has("curve")</c>, asked once per process).</summary>
    public static bool IsSupported
    {
        get
        {
            if (s_supported == 0)
            {
                s_supported = Context.Has("curve") ? 1 : -1;
            }

            return s_supported > 0;
        }
    }

    /// <summary>Generates a new random key pair (<c>zmq_curve_keypair</c>).</summary>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    /// <exception cref="ZmqException">libzmq could not generate the keys.</exception>
    public static unsafe CurveKeyPair GenerateKeyPair()
    {
        ThrowIfUnsupported();
        Span<byte> publicText = stackalloc byte[NativeTextLength];
        Span<byte> secretText = stackalloc byte[NativeTextLength];
        try
        {
            fixed (byte* publicPointer = publicText)
            fixed (byte* secretPointer = secretText)
            {
                if (LibZmq.CurveKeypair(publicPointer, secretPointer) != 0)
                {
                    ThrowFailed(LibZmq.Errno(), "Generating a CURVE key pair (zmq_curve_keypair)");
                }
            }

            var publicKey = new byte[KeyLength];
            var secretKey = new byte[KeyLength];
            FromNativeText(publicText, publicKey);
            FromNativeText(secretText, secretKey);
            return new CurveKeyPair(publicKey, secretKey);
        }
        finally
        {
            CryptographicOperations.ZeroMemory(secretText);
        }
    }

    /// <summary>Derives the public key that belongs to <paramref name="secretKey"/>, both as Z85 text (<c>zmq_curve_public</c>).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="secretKey"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="secretKey"/> is not 40 characters of valid Z85 text.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    public static string DerivePublicKey(string secretKey)
    {
        Span<byte> secret = stackalloc byte[KeyLength];
        Span<byte> publicKey = stackalloc byte[KeyLength];
        try
        {
            DecodeKey(secretKey, secret, nameof(secretKey));
            DerivePublicKey(secret, publicKey);
            return Z85.Encode(publicKey);
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

        var publicKey = new byte[KeyLength];
        DerivePublicKey(secretKey, publicKey);
        return publicKey;
    }

    /// <summary>Checks that <paramref name="key"/> is a CURVE key in Z85 text and returns its 32 bytes.</summary>
    internal static byte[] DecodeKey(string key, string paramName)
    {
        var bytes = new byte[KeyLength];
        DecodeKey(key, bytes, paramName);
        return bytes;
    }

    /// <summary>Checks that <paramref name="key"/> is a CURVE key in Z85 text and writes its 32 bytes to <paramref name="destination"/>.</summary>
    internal static void DecodeKey(string key, Span<byte> destination, string paramName)
    {
        ArgumentNullException.ThrowIfNull(key, paramName);
        if (key.Length != KeyTextLength)
        {
            ThrowHelper.ThrowArgument(
                $"A CURVE key in text form is {KeyTextLength} Z85 characters; {key.Length} characters were given.", paramName);
        }

        Z85.Decode(key, destination, paramName);
    }

    /// <summary>Derives the public key of a secret key already known to be 32 bytes long (<c>zmq_curve_public</c>).</summary>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    internal static unsafe void DerivePublicKey(ReadOnlySpan<byte> secretKey, Span<byte> publicKey)
    {
        ThrowIfUnsupported();
        Span<byte> secretText = stackalloc byte[NativeTextLength];
        Span<byte> publicText = stackalloc byte[NativeTextLength];
        try
        {
            ToNativeText(secretKey, secretText);
            fixed (byte* publicPointer = publicText)
            fixed (byte* secretPointer = secretText)
            {
                if (LibZmq.CurvePublic(publicPointer, secretPointer) != 0)
                {
                    ThrowFailed(LibZmq.Errno(), "Deriving a CURVE public key (zmq_curve_public)");
                }
            }

            FromNativeText(publicText, publicKey);
        }
        finally
        {
            CryptographicOperations.ZeroMemory(secretText);
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

    /// <summary>Writes <paramref name="key"/> as the zero-terminated Z85 text libzmq's key functions take.</summary>
    private static void ToNativeText(ReadOnlySpan<byte> key, Span<byte> text)
    {
        Span<char> chars = stackalloc char[KeyTextLength];
        Z85.Encode(key, chars);
        Encoding.ASCII.GetBytes(chars, text);
        text[KeyTextLength] = 0;
        chars.Clear();
    }

    /// <summary>Decodes the Z85 text a libzmq key function wrote into the key's bytes.</summary>
    private static void FromNativeText(ReadOnlySpan<byte> text, Span<byte> key)
    {
        Span<char> chars = stackalloc char[KeyTextLength];
        Encoding.ASCII.GetChars(text[..KeyTextLength], chars);
        Z85.Decode(chars, key);
        chars.Clear();
    }

    private static void ThrowFailed(int errorNumber, string operation)
    {
        if (errorNumber == Errno.ENOTSUP)
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
}
