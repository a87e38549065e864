using System.Security.Cryptography;
using System.Text;
using Net.Zmq.Internal;
using Net.Zmq.Security;

namespace Net.Zmq;

public sealed partial class Socket
{
    private const int MaxPlainCredentialBytes = 255;

    /// <summary>
    /// Makes this socket a CURVE server with the secret key <paramref name="secretKey"/> (Z85 text): sets
    /// <see cref="SocketOption.CurveServer"/>, <see cref="SocketOption.CurveSecretKey"/> and the matching
    /// <see cref="SocketOption.CurvePublicKey"/>. Call it before <see cref="Bind"/> or <see cref="Connect"/>.
    /// Clients need the server's public key (<see cref="Curve.DerivePublicKey(string)"/>).
    /// </summary>
    /// <remarks>
    /// Without a ZAP handler (a REP socket bound to <c>inproc://zeromq.zap.01</c> in the same context) libzmq
    /// accepts every client that knows the server's public key; install one to decide which client keys to allow.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="secretKey"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="secretKey"/> is not 40 characters of valid Z85 text.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been bound or connected already (its endpoints would stay without this security).</exception>
    public void MakeCurveServer(string secretKey)
    {
        Span<byte> secret = stackalloc byte[Curve.KeyLength];
        Span<byte> publicKey = stackalloc byte[Curve.KeyLength];
        try
        {
            Curve.DecodeKey(secretKey, secret, nameof(secretKey));
            Curve.DerivePublicKey(secret, publicKey);
            SetCurveServerKeys(secret, publicKey);
        }
        finally
        {
            CryptographicOperations.ZeroMemory(secret);
        }
    }

    /// <summary>
    /// Makes this socket a CURVE server with <paramref name="serverKeys"/>: sets <see cref="SocketOption.CurveServer"/>,
    /// <see cref="SocketOption.CurveSecretKey"/> and <see cref="SocketOption.CurvePublicKey"/>. Call it before
    /// <see cref="Bind"/> or <see cref="Connect"/>; give <see cref="CurveKeyPair.PublicKey"/> to the clients.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="serverKeys"/> is null.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been bound or connected already (its endpoints would stay without this security).</exception>
    public void MakeCurveServer(CurveKeyPair serverKeys)
    {
        ArgumentNullException.ThrowIfNull(serverKeys);
        Curve.ThrowIfUnsupported();
        SetCurveServerKeys(serverKeys.SecretKeySpan, serverKeys.PublicKeySpan);
    }

    /// <summary>
    /// Makes this socket a CURVE client with its own <paramref name="clientKeys"/> that trusts the server whose public
    /// key is <paramref name="serverPublicKey"/> (Z85 text): sets <see cref="SocketOption.CurveServerKey"/>,
    /// <see cref="SocketOption.CurvePublicKey"/> and <see cref="SocketOption.CurveSecretKey"/>. Call it before
    /// <see cref="Connect"/>. A server with another key never completes the handshake, so nothing is exchanged.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="serverPublicKey"/> is not 40 characters of valid Z85 text.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been bound or connected already (its endpoints would stay without this security).</exception>
    public void MakeCurveClient(CurveKeyPair clientKeys, string serverPublicKey)
    {
        ArgumentNullException.ThrowIfNull(clientKeys);
        Span<byte> serverKey = stackalloc byte[Curve.KeyLength];
        Curve.DecodeKey(serverPublicKey, serverKey, nameof(serverPublicKey));
        Curve.ThrowIfUnsupported();
        SetOption(SocketOption.CurveServerKey, serverKey);
        SetOption(SocketOption.CurvePublicKey, clientKeys.PublicKeySpan);
        SetOption(SocketOption.CurveSecretKey, clientKeys.SecretKeySpan);
    }

    /// <summary>
    /// Makes this socket a PLAIN server (<see cref="SocketOption.PlainServer"/>): clients send a user name and a
    /// password, in clear text. Call it before <see cref="Bind"/> or <see cref="Connect"/>.
    /// </summary>
    /// <remarks>
    /// libzmq 4.3 checks PLAIN credentials only through ZAP: a REP socket bound to <c>inproc://zeromq.zap.01</c>
    /// in the same context must answer the authentication requests. Without one, every PLAIN client is refused
    /// (the handshake fails and no message gets through). PLAIN does not encrypt; use CURVE across untrusted networks.
    /// </remarks>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been bound or connected already (its endpoints would stay without this security).</exception>
    public void MakePlainServer() => SetOption(SocketOption.PlainServer, true);

    /// <summary>
    /// Makes this socket a PLAIN client that logs in with <paramref name="username"/> and <paramref name="password"/>
    /// (<see cref="SocketOption.PlainUsername"/>, <see cref="SocketOption.PlainPassword"/>). Call it before
    /// <see cref="Connect"/>. The credentials travel in clear text.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentException">An argument is empty or longer than 255 bytes in UTF-8 (libzmq's limits).</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been bound or connected already (its endpoints would stay without this security).</exception>
    public void MakePlainClient(string username, string password)
    {
        ThrowIfBadPlainCredential(username, nameof(username));
        ThrowIfBadPlainCredential(password, nameof(password));
        SetOption(SocketOption.PlainUsername, username);
        SetOption(SocketOption.PlainPassword, password);
    }

    /// <summary>Sets the CURVE server options from two 32-byte keys, which libzmq takes as they are.</summary>
    private void SetCurveServerKeys(ReadOnlySpan<byte> secretKey, ReadOnlySpan<byte> publicKey)
    {
        SetOption(SocketOption.CurveServer, true);
        SetOption(SocketOption.CurveSecretKey, secretKey);
        SetOption(SocketOption.CurvePublicKey, publicKey);
    }

    private static void ThrowIfBadPlainCredential(string value, string paramName)
    {
        ArgumentNullException.ThrowIfNull(value, paramName);
        int bytes = Encoding.UTF8.GetByteCount(value);
        if (bytes is 0 or > MaxPlainCredentialBytes)
        {
            ThrowHelper.ThrowArgument(
                $"libzmq takes a PLAIN {paramName} of 1 to {MaxPlainCredentialBytes} bytes; this one is {bytes} bytes in UTF-8.",
                paramName);
        }
    }
}
