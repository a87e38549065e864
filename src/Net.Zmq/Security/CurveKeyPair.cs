using System.Runtime.Serialization;
using System.Text.Json.Serialization;

namespace Net.Zmq.Security;

/// <summary>
/// A CURVE long-term key pair: a public key to share and a secret key to keep. Immutable; the keys are held as
/// 32 bytes each and offered as 40-character Z85 text too. The secret key never appears in <see cref="ToString"/>,
/// in serialised output (System.Text.Json and serialisers that honour <see cref="IgnoreDataMemberAttribute"/> skip it)
/// or in the text of an exception.
/// </summary>
public sealed class CurveKeyPair
{
    private readonly byte[] _publicKey;
    private readonly byte[] _secretKey;

    /// <summary>Creates a key pair from keys in Z85 text, for example read from a configuration file.</summary>
    /// <remarks>Only the format is checked; use <see cref="FromSecretKey(string)"/> to be sure the two keys belong together.</remarks>
    /// <exception cref="ArgumentNullException">A key is null.</exception>
    /// <exception cref="ArgumentException">A key is not 40 characters of valid Z85 text.</exception>
    public CurveKeyPair(string publicKey, string secretKey)
        : this(Curve.DecodeKey(publicKey, nameof(publicKey)), Curve.DecodeKey(secretKey, nameof(secretKey)))
    {
    }

    /// <summary>Takes ownership of two 32-byte keys.</summary>
    internal CurveKeyPair(byte[] publicKey, byte[] secretKey)
    {
        _publicKey = publicKey;
        _secretKey = secretKey;
    }

    /// <summary>The public key as 40 characters of Z85 text: give it to peers (a client needs the server's).</summary>
    public string PublicKey => Z85.Encode(_publicKey);

    /// <summary>The secret key as 40 characters of Z85 text: keep it private. Serialisers skip it.</summary>
    [JsonIgnore]
    [IgnoreDataMember]
    public string SecretKey => Z85.Encode(_secretKey);

    /// <summary>A new copy of the 32-byte public key.</summary>
    public byte[] PublicKeyBytes => (byte[])_publicKey.Clone();

    /// <summary>A new copy of the 32-byte secret key. Serialisers skip it.</summary>
    [JsonIgnore]
    [IgnoreDataMember]
    public byte[] SecretKeyBytes => (byte[])_secretKey.Clone();

    /// <summary>The 32-byte public key, without a copy.</summary>
    internal ReadOnlySpan<byte> PublicKeySpan => _publicKey;

    /// <summary>The 32-byte secret key, without a copy.</summary>
    internal ReadOnlySpan<byte> SecretKeySpan => _secretKey;

    /// <summary>Builds the key pair that belongs to <paramref name="secretKey"/> (Z85 text), deriving its public key (<c>zmq_curve_public</c>).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="secretKey"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="secretKey"/> is not 40 characters of valid Z85 text.</exception>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    public static CurveKeyPair FromSecretKey(string secretKey)
    {
        byte[] secret = Curve.DecodeKey(secretKey, nameof(secretKey));
        return new CurveKeyPair(Curve.DerivePublicKey(secret), secret);
    }

    /// <summary>Describes the pair by its public key only; the secret key is never shown.</summary>
    public override string ToString() => $"CURVE key pair (public key {PublicKey})";
}
