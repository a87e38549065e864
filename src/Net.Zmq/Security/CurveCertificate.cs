using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Net.Zmq.Internal;

namespace Net.Zmq.Security;

/// <summary>
/// A CURVE certificate: a public key, the secret key when this side owns it, and metadata (ordered name/value pairs),
/// stored as text files in the ZPL format CZMQ's <c>zcert</c> and pyzmq's <c>zmq.auth</c> read and write. A public
/// file holds the public key and the metadata and may be shared; a secret file (<c>path + "_secret"</c> by
/// <see cref="Save"/>) holds both keys and is created readable by its owner only. Not thread-safe while its metadata
/// changes.
/// </summary>
/// <example>
/// <code>
/// CurveCertificate server = CurveCertificate.Generate().SetMetadata("name", "server");
/// server.Save("certs/server.key");                          // certs/server.key and certs/server.key_secret
/// CurveCertificate mine = CurveCertificate.Load("certs/server.key_secret");
/// socket.MakeCurveServer(mine.KeyPair);
/// </code>
/// </example>
public sealed class CurveCertificate
{
    /// <summary>The suffix <see cref="Save"/> adds to a path for the secret file, as CZMQ and pyzmq name it.</summary>
    public const string SecretFileSuffix = "_secret";

    // CZMQ writes a public-only certificate's missing secret key as 32 zero bytes, which encode to forty '0'.
    private const string ZeroKeyText = "0000000000000000000000000000000000000000";

    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false);
    private static readonly System.Buffers.SearchValues<char> s_lowerHexDigits = System.Buffers.SearchValues.Create("0123456789abcdef");
    private static readonly EnumerationOptions s_temporaryFiles = new() { AttributesToSkip = 0, MatchType = MatchType.Simple };
    private readonly byte[] _publicKey;
    private readonly CurveKeyPair? _keyPair;
    private readonly List<KeyValuePair<string, string>> _metadata = [];

    /// <summary>Creates a certificate that owns <paramref name="keyPair"/> (both keys), without metadata.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="keyPair"/> is null.</exception>
    public CurveCertificate(CurveKeyPair keyPair)
    {
        ArgumentNullException.ThrowIfNull(keyPair);
        _keyPair = keyPair;
        _publicKey = keyPair.PublicKeyBytes;
    }

    private CurveCertificate(byte[] publicKey, CurveKeyPair? keyPair)
    {
        _publicKey = publicKey;
        _keyPair = keyPair;
    }

    /// <summary>The public key as 40 characters of Z85 text.</summary>
    public string PublicKey => Z85.Encode(_publicKey);

    /// <summary>A new copy of the 32-byte public key.</summary>
    public byte[] PublicKeyBytes => (byte[])_publicKey.Clone();

    /// <summary>Whether the certificate holds the secret key (it was generated here or loaded from a secret file).</summary>
    public bool HasSecretKey => _keyPair is not null;

    /// <summary>Both keys, to configure a socket (<see cref="Socket.MakeCurveServer(CurveKeyPair)"/>, <see cref="Socket.MakeCurveClient(CurveKeyPair, string)"/>).</summary>
    /// <exception cref="InvalidOperationException">The certificate holds the public key only (<see cref="HasSecretKey"/> is false).</exception>
    public CurveKeyPair KeyPair => _keyPair ?? throw new InvalidOperationException(
        $"The certificate of public key {PublicKey} holds no secret key: load its secret file (the one Save wrote with the '{SecretFileSuffix}' suffix).");

    /// <summary>The metadata, in the order it was set or read.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Metadata => _metadata;

    /// <summary>Generates a certificate with a new random key pair (<see cref="Curve.GenerateKeyPair"/>).</summary>
    /// <exception cref="NotSupportedException">The loaded libzmq was built without CURVE.</exception>
    public static CurveCertificate Generate() => new(Curve.GenerateKeyPair());

    /// <summary>Creates a certificate that holds only a peer's public key (40 Z85 characters).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="publicKey"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="publicKey"/> is not 40 characters of valid Z85 text.</exception>
    public static CurveCertificate FromPublicKey(string publicKey) => new(Curve.DecodeKey(publicKey, nameof(publicKey)), null);

    /// <summary>Creates a certificate that holds only a peer's 32-byte public key.</summary>
    /// <exception cref="ArgumentException"><paramref name="publicKey"/> is not 32 bytes.</exception>
    public static CurveCertificate FromPublicKey(ReadOnlySpan<byte> publicKey)
    {
        if (publicKey.Length != Curve.KeyLength)
        {
            ThrowHelper.ThrowArgument($"A CURVE public key is {Curve.KeyLength} bytes; {publicKey.Length} were given.", nameof(publicKey));
        }

        return new CurveCertificate(publicKey.ToArray(), null);
    }

    /// <summary>The value of the metadata called <paramref name="name"/> (compared ordinally), or null.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
    public string? GetMetadata(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        int index = IndexOf(name);
        return index < 0 ? null : _metadata[index].Value;
    }

    /// <summary>Sets the metadata <paramref name="name"/> to <paramref name="value"/>: in place if it exists, else at the end.</summary>
    /// <returns>This certificate, to chain calls.</returns>
    /// <exception cref="ArgumentNullException">A parameter is null.</exception>
    /// <exception cref="ArgumentException">
    /// The name is not a ZPL name (letters, digits and <c>$-_@.&amp;+/</c>, not starting or ending with '/'), or the value
    /// holds a line break or other control character, or both a single and a double quote (ZPL has no escapes).
    /// </exception>
    public CurveCertificate SetMetadata(string name, string value)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(value);
        if (!ZplDocument.IsValidName(name))
        {
            ThrowHelper.ThrowArgument(
                $"'{name}' is not a ZPL name: use letters, digits and $-_@.&+/, not starting or ending with '/'.", nameof(name));
        }

        if (!ZplDocument.IsWritableValue(value))
        {
            ThrowHelper.ThrowArgument(
                "A metadata value cannot hold a line break or another control character, nor both a single and a double quote.", nameof(value));
        }

        Put(name, value);
        return this;
    }

    /// <summary>Removes the metadata called <paramref name="name"/>; false when there was none.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
    public bool RemoveMetadata(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        int index = IndexOf(name);
        if (index >= 0)
        {
            _metadata.RemoveAt(index);
        }

        return index >= 0;
    }

    /// <summary>
    /// Reads the certificate file at <paramref name="path"/>, exactly that file: a public file gives a certificate
    /// without secret key, a secret file (<c>name_secret</c>) one with both keys. Unknown sections and properties are
    /// ignored; CRLF and CR line ends, a UTF-8 byte order mark and unquoted values are accepted.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null or empty.</exception>
    /// <exception cref="FileNotFoundException">There is no such file (and the other <see cref="IOException"/>s of reading a file).</exception>
    /// <exception cref="InvalidDataException">
    /// The file is not a CURVE certificate: malformed ZPL, no <c>curve</c>/<c>public-key</c>, a key that is not 40 Z85
    /// characters, or a secret key that does not belong to the public key. The message names the file and the line,
    /// never a key.
    /// </exception>
    public static CurveCertificate Load(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        string fullPath = Path.GetFullPath(path);
        DeleteStaleTemporaryFiles(fullPath);
        DeleteStaleTemporaryFiles(fullPath.EndsWith(SecretFileSuffix, StringComparison.Ordinal)
            ? fullPath[..^SecretFileSuffix.Length]
            : fullPath + SecretFileSuffix);
        return Parse(File.ReadAllText(path, s_utf8), path);
    }

    /// <summary>
    /// Writes the public file at <paramref name="path"/> (public key and metadata) and the secret file at
    /// <c>path + "_secret"</c> (both keys and metadata, readable by the owner only), as <c>zcert_save</c> does. Both are
    /// written to hidden temporary files first and renamed into place only when both are complete, so an interrupted
    /// Save leaves the old pair, or at worst (between the two renames) a new secret file beside the old public file;
    /// temporary files an interrupted Save left behind are deleted by the next Save or Load of the path.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null or empty.</exception>
    /// <exception cref="InvalidOperationException">The certificate has no secret key (use <see cref="SavePublic"/>), or its public key is not its secret key's, or a metadata value read from a file cannot be written back.</exception>
    /// <exception cref="IOException">
    /// A file could not be written, or a target is a directory (checked before anything is written); and the other
    /// exceptions of writing a file.
    /// </exception>
    public void Save(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ThrowIfKeysDisagree();
        string publicPath = Path.GetFullPath(path);
        string secretPath = publicPath + SecretFileSuffix;
        EnsureNotDirectory(publicPath);
        EnsureNotDirectory(secretPath);
        DeleteStaleTemporaryFiles(publicPath);
        DeleteStaleTemporaryFiles(secretPath);
        string publicTemporary = WriteTemporary(publicPath, Format(secret: false), ownerOnly: false);
        string? secretTemporary = null;
        try
        {
            secretTemporary = WriteTemporary(secretPath, Format(secret: true), ownerOnly: true);

            // The secret file first: a client that reads the new public key must find the server holding its secret.
            File.Move(secretTemporary, secretPath, overwrite: true);
            secretTemporary = null;
            File.Move(publicTemporary, publicPath, overwrite: true);
        }
        catch
        {
            File.Delete(publicTemporary);
            if (secretTemporary is not null)
            {
                File.Delete(secretTemporary);
            }

            throw;
        }
    }

    /// <summary>Writes only the public file at <paramref name="path"/>: the public key and the metadata, to share with peers.</summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null or empty.</exception>
    /// <exception cref="InvalidOperationException">A metadata value read from a file cannot be written back.</exception>
    /// <exception cref="IOException">The file could not be written (and the other exceptions of writing a file).</exception>
    public void SavePublic(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        WriteFile(path, Format(secret: false), ownerOnly: false);
    }

    /// <summary>
    /// Writes only the secret file at <paramref name="path"/> (both keys and the metadata). On Unix it is created with
    /// mode 0600 (owner read and write); on Windows it takes the ACL its directory passes on.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null or empty.</exception>
    /// <exception cref="InvalidOperationException">The certificate has no secret key, or its public key is not its secret key's, or a metadata value read from a file cannot be written back.</exception>
    /// <exception cref="IOException">The file could not be written (and the other exceptions of writing a file).</exception>
    public void SaveSecret(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ThrowIfKeysDisagree();
        WriteFile(path, Format(secret: true), ownerOnly: true);
    }

    /// <summary>
    /// Before a secret file is written: the certificate has a secret key, and (where libzmq can derive it) its public key
    /// is that key's. A <see cref="CurveKeyPair"/> built from two keys checks only their format, and a secret file of keys
    /// that disagree is refused by <see cref="Load"/>: it may be the only copy of its key.
    /// </summary>
    private void ThrowIfKeysDisagree()
    {
        CurveKeyPair keys = KeyPair;
        if (!Curve.IsSupported)
        {
            return;
        }

        Span<byte> derived = stackalloc byte[Curve.KeyLength];
        Curve.DerivePublicKey(keys.SecretKeySpan, derived);
        if (!derived.SequenceEqual(keys.PublicKeySpan))
        {
            throw new InvalidOperationException(
                $"The certificate's public key {PublicKey} is not its secret key's ({Z85.Encode(derived)}): Load would refuse " +
                "the files. Nothing was written; build the pair with CurveKeyPair.FromSecretKey.");
        }
    }

    /// <summary>Describes the certificate by its public key; the secret key is never shown.</summary>
    public override string ToString() =>
        $"CURVE certificate (public key {PublicKey}{(HasSecretKey ? ", with secret key" : "")})";

    /// <summary>Builds a certificate from the text of a certificate file; <paramref name="source"/> names it in errors.</summary>
    internal static CurveCertificate Parse(string text, string source)
    {
        string? section = null;
        ZplDocument.Property? publicKey = null;
        ZplDocument.Property? secretKey = null;
        List<KeyValuePair<string, string>> metadata = [];
        foreach (ZplDocument.Property property in ZplDocument.Parse(text, source))
        {
            if (property.Level == 0)
            {
                section = property.Name;
            }
            else if (property.Level == 1 && section == "metadata")
            {
                metadata.Add(new(property.Name, property.Value));
            }
            else if (property.Level == 1 && section == "curve" && property.Name == "public-key")
            {
                publicKey = property;
            }
            else if (property.Level == 1 && section == "curve" && property.Name == "secret-key")
            {
                secretKey = property;
            }
        }

        if (publicKey is not { } publicProperty)
        {
            throw new InvalidDataException($"{source}: not a CURVE certificate: it has no 'public-key' in a 'curve' section.");
        }

        byte[] publicBytes = DecodeKey(publicProperty, source);
        CurveKeyPair? keyPair = null;
        if (secretKey is { } secretProperty && secretProperty.Value != ZeroKeyText)
        {
            byte[] secretBytes = DecodeKey(secretProperty, source);
            if (Curve.IsSupported && !Curve.DerivePublicKey(secretBytes).AsSpan().SequenceEqual(publicBytes))
            {
                CryptographicOperations.ZeroMemory(secretBytes);
                throw new InvalidDataException(
                    $"{source}, line {secretProperty.Line}: the secret-key does not belong to the public-key of line {publicProperty.Line}.");
            }

            keyPair = new CurveKeyPair((byte[])publicBytes.Clone(), secretBytes);
        }

        var certificate = new CurveCertificate(publicBytes, keyPair);
        foreach (KeyValuePair<string, string> item in metadata)
        {
            certificate.Put(item.Key, item.Value);
        }

        return certificate;
    }

    /// <summary>The text of the public (or secret) file, laid out as CZMQ's zcert writes it.</summary>
    internal string Format(bool secret)
    {
        var text = new StringBuilder(512);
        string now = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm:ss'Z'", CultureInfo.InvariantCulture);
        text.Append("#   ****  Generated on ").Append(now).Append(" by Net.Zmq  ****\n");
        if (secret)
        {
            text.Append("#   ZeroMQ CURVE **Secret** Certificate\n");
            text.Append("#   Holds the secret key: keep it private and readable by its owner only.\n");
        }
        else
        {
            text.Append("#   ZeroMQ CURVE Public Certificate\n");
            text.Append("#   Give it to the peers that must trust this key, over a channel that keeps it from being altered.\n");
        }

        text.Append('\n');
        ZplDocument.AppendSection(text, 0, "metadata");
        foreach ((string name, string value) in _metadata)
        {
            if (!ZplDocument.IsWritableValue(value))
            {
                throw new InvalidOperationException(
                    $"The metadata '{name}' holds both a single and a double quote (or a control character), which ZPL cannot write.");
            }

            ZplDocument.AppendProperty(text, 1, name, value);
        }

        ZplDocument.AppendSection(text, 0, "curve");
        ZplDocument.AppendProperty(text, 1, "public-key", PublicKey);
        if (secret)
        {
            ZplDocument.AppendProperty(text, 1, "secret-key", KeyPair.SecretKey);
        }

        return text.ToString();
    }

    private static byte[] DecodeKey(ZplDocument.Property property, string source)
    {
        var key = new byte[Curve.KeyLength];
        if (property.Value.Length != Curve.KeyTextLength || !Z85.TryDecode(property.Value, key))
        {
            throw new InvalidDataException(
                $"{source}, line {property.Line}: the {property.Name} is not a CURVE key ({Curve.KeyTextLength} Z85 characters; " +
                $"the value has {property.Value.Length} characters{(property.Value.Length == Curve.KeyTextLength ? ", some not Z85" : "")}).");
        }

        return key;
    }

    /// <summary>
    /// Writes <paramref name="text"/> to a hidden temporary file beside <paramref name="path"/>, created owner-only
    /// when asked, then renames it over <paramref name="path"/>: readers never see half a file, and a secret file
    /// that existed with looser permissions is replaced, not rewritten in place.
    /// </summary>
    private static void WriteFile(string path, string text, bool ownerOnly)
    {
        string fullPath = Path.GetFullPath(path);
        EnsureNotDirectory(fullPath);
        DeleteStaleTemporaryFiles(fullPath);
        string temporary = WriteTemporary(fullPath, text, ownerOnly);
        try
        {
            File.Move(temporary, fullPath, overwrite: true);
        }
        catch
        {
            File.Delete(temporary);
            throw;
        }
    }

    /// <summary>Writes and flushes a new hidden temporary file beside <paramref name="fullPath"/> and returns its path.</summary>
    private static string WriteTemporary(string fullPath, string text, bool ownerOnly)
    {
        string temporary = Path.Combine(Path.GetDirectoryName(fullPath) ?? ".", $"{TemporaryPrefix(fullPath)}{Guid.NewGuid():N}.tmp");
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write, Share = FileShare.None };
        if (ownerOnly && !OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        try
        {
            using var stream = new FileStream(temporary, options);
            stream.Write(s_utf8.GetBytes(text));
            stream.Flush(flushToDisk: true);
            return temporary;
        }
        catch
        {
            File.Delete(temporary);
            throw;
        }
    }

    /// <summary>
    /// Deletes the temporary files a Save of <paramref name="fullPath"/> that was killed left behind (they may hold a
    /// secret key). Best effort: a directory this process may not write to keeps them.
    /// </summary>
    private static void DeleteStaleTemporaryFiles(string fullPath)
    {
        string? directory = Path.GetDirectoryName(fullPath);
        string prefix = TemporaryPrefix(fullPath);
        if (directory is null || !Directory.Exists(directory))
        {
            return;
        }

        try
        {
            foreach (string file in Directory.EnumerateFiles(directory, "*", s_temporaryFiles))
            {
                // Exactly the names WriteTemporary makes: the prefix, 32 lower-case hex digits, ".tmp".
                string name = Path.GetFileName(file);
                if (name.Length == prefix.Length + 36 && name.StartsWith(prefix, StringComparison.Ordinal) &&
                    name.EndsWith(".tmp", StringComparison.Ordinal) && !name.AsSpan(prefix.Length, 32).ContainsAnyExcept(s_lowerHexDigits))
                {
                    File.Delete(file);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left for a later Save or Load; nothing else depends on it.
        }
    }

    private static string TemporaryPrefix(string fullPath) => $".{Path.GetFileName(fullPath)}.";

    private static void EnsureNotDirectory(string fullPath)
    {
        if (Directory.Exists(fullPath))
        {
            throw new IOException($"{fullPath} is a directory, so no certificate file can be written there; nothing was written. Choose another path.");
        }
    }

    private void Put(string name, string value)
    {
        int index = IndexOf(name);
        if (index >= 0)
        {
            _metadata[index] = new(name, value);
        }
        else
        {
            _metadata.Add(new(name, value));
        }
    }

    private int IndexOf(string name) => _metadata.FindIndex(item => string.Equals(item.Key, name, StringComparison.Ordinal));
}
