using System.Diagnostics.CodeAnalysis;
using System.Net;
using System.Security.Cryptography;
using System.Text;
using Net.Zmq.Internal;

namespace Net.Zmq.Security;

/// <summary>
/// Who may connect, for one ZAP domain of a <see cref="ZapAuthenticator"/>: an IP allow-list or deny-list, a
/// PLAIN user table, and the CURVE client keys accepted. Thread-safe; changes apply to the next handshake.
/// </summary>
/// <remarks>
/// A request is checked in this order. Address: when the allow-list is not empty the peer's address must be in one of
/// its entries; otherwise an address in a deny-list entry is refused. Entries are single addresses or CIDR ranges, and
/// IPv4 matches however libzmq spells the peer (a socket with <see cref="SocketOption.Ipv6"/> reports IPv4 peers as
/// <c>::ffff:a.b.c.d</c>). Mechanism: NULL is accepted once the address passed (libzmq asks about NULL only for
/// sockets with a <see cref="SocketOption.ZapDomain"/>); PLAIN needs a matching user name and password, compared as
/// the bytes the client sent against their UTF-8 form (the password in constant time); CURVE needs an allowed client
/// key (<see cref="AllowCurveKey(string)"/>, or a certificate in a directory given to <see cref="AllowCurveCertificates"/>), or
/// <see cref="AllowAnyCurveKey"/>. Anything else is refused.
/// The authenticated identity (the PLAIN user name, or the client's Z85 public key) reaches the server as the
/// "User-Id" metadata of every message from that peer.
/// </remarks>
public sealed class ZapPolicy
{
    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);
    private readonly object _gate = new();
    private readonly List<AddressRange> _allowed = [];
    private readonly List<AddressRange> _denied = [];
    private readonly Dictionary<string, byte[]> _users = new(StringComparer.Ordinal);
    private readonly HashSet<string> _curveKeys = new(StringComparer.Ordinal);
    private readonly List<CertificateDirectory> _certificateDirectories = [];
    private bool _anyCurveKey;

    internal ZapPolicy()
    {
    }

    /// <summary>
    /// Accepts peers from <paramref name="address"/> only (with any other allowed entry): an IPv4 or IPv6 address,
    /// or a CIDR range such as <c>10.0.0.0/8</c> or <c>2001:db8::/32</c>.
    /// </summary>
    /// <exception cref="ArgumentException">
    /// <paramref name="address"/> is not a canonical IPv4 address (four decimal parts, no leading zeros) or RFC 4291
    /// IPv6 text, with an optional prefix length in range and no host bits set; the message shows the entry probably meant.
    /// </exception>
    public ZapPolicy AllowAddress(string address) => AddAddress(_allowed, address);

    /// <summary>
    /// Refuses peers from <paramref name="address"/>, an IPv4 or IPv6 address or a CIDR range such as
    /// <c>192.168.0.0/16</c> (ignored while an allow-list is set).
    /// </summary>
    /// <exception cref="ArgumentException">
    /// <paramref name="address"/> is not a canonical IPv4 address (four decimal parts, no leading zeros) or RFC 4291
    /// IPv6 text, with an optional prefix length in range and no host bits set; the message shows the entry probably meant.
    /// </exception>
    public ZapPolicy DenyAddress(string address) => AddAddress(_denied, address);

    /// <summary>Accepts PLAIN clients that present <paramref name="userName"/> and <paramref name="password"/> (sent as UTF-8).</summary>
    /// <exception cref="ArgumentException">The user name is null or empty, or a string is not valid UTF-16 (a lone surrogate).</exception>
    /// <exception cref="ArgumentNullException">The password is null.</exception>
    public ZapPolicy AddPlainUser(string userName, string password)
    {
        ArgumentException.ThrowIfNullOrEmpty(userName);
        ArgumentNullException.ThrowIfNull(password);
        EnsureEncodable(userName, nameof(userName));
        byte[] passwordBytes = EnsureEncodable(password, nameof(password));
        lock (_gate)
        {
            _users[userName] = passwordBytes;
        }

        return this;
    }

    /// <summary>Accepts CURVE clients whose long-term public key is <paramref name="publicKeyZ85"/> (40 Z85 characters).</summary>
    /// <exception cref="ArgumentException">The key is not 40 valid Z85 characters.</exception>
    public ZapPolicy AllowCurveKey(string publicKeyZ85)
    {
        ArgumentNullException.ThrowIfNull(publicKeyZ85);
        if (publicKeyZ85.Length != Curve.KeyTextLength || !Z85.TryDecode(publicKeyZ85, stackalloc byte[Curve.KeyLength]))
        {
            ThrowHelper.ThrowArgument($"A CURVE public key is {Curve.KeyTextLength} Z85 characters.", nameof(publicKeyZ85));
        }

        return AddCurveKey(publicKeyZ85);
    }

    /// <summary>Accepts CURVE clients whose long-term public key is these 32 bytes.</summary>
    /// <exception cref="ArgumentException">The key is not 32 bytes.</exception>
    public ZapPolicy AllowCurveKey(ReadOnlySpan<byte> publicKey)
    {
        if (publicKey.Length != Curve.KeyLength)
        {
            ThrowHelper.ThrowArgument($"A CURVE public key is {Curve.KeyLength} bytes.", nameof(publicKey));
        }

        return AddCurveKey(Z85.Encode(publicKey));
    }

    /// <summary>Accepts every CURVE client (the connection is still encrypted; the client's key becomes its User-Id).</summary>
    public ZapPolicy AllowAnyCurveKey()
    {
        lock (_gate)
        {
            _anyCurveKey = true;
        }

        return this;
    }

    /// <summary>
    /// Accepts CURVE clients whose public key is in a certificate file of <paramref name="directory"/> (pyzmq's
    /// <c>configure_curve(location=...)</c>, CZMQ's certificate store). Every regular file directly in the directory is
    /// read as a <see cref="CurveCertificate"/>, except secret files (names ending in <c>_secret</c>) and hidden files
    /// (names starting with '.'); subdirectories are not searched.
    /// </summary>
    /// <remarks>
    /// Only regular files of at most 8 KB are read; on Linux a symbolic link is followed only to a file inside the
    /// directory, elsewhere links are refused. On Linux, FIFOs, devices, sockets, larger files and links out of the
    /// directory fail the directory like a file that is not a certificate; on other systems the file type is not checked
    /// before opening, so keep such entries out of a trusted directory there. The directory is indexed by public key: a handshake costs one
    /// <c>stat</c> of the directory and a lookup (and, for a known key, a read of its file), whatever the directory holds.
    /// It is indexed again when its listing changes (a file added, removed or renamed); a known key's file is compared
    /// with what was indexed at each of its handshakes, so removing or rewriting a client's certificate revokes it for
    /// new connections, without a restart. If the directory later holds an entry that is not a certificate, CURVE clients
    /// not allowed otherwise are refused (ZAP status 500) until it is fixed or removed; if the directory goes, its keys
    /// are no longer trusted.
    /// </remarks>
    /// <exception cref="ArgumentException"><paramref name="directory"/> is null or empty.</exception>
    /// <exception cref="DirectoryNotFoundException">There is no such directory.</exception>
    /// <exception cref="InvalidDataException">
    /// An entry in it is not a CURVE certificate in a regular file of at most 8 KB (or is a link out of the directory); the
    /// message names the file and what is wrong.
    /// </exception>
    /// <exception cref="IOException">A file could not be read.</exception>
    /// <exception cref="UnauthorizedAccessException">A file may not be read by this process.</exception>
    public ZapPolicy AllowCurveCertificates(string directory)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        var certificates = new CertificateDirectory(directory);
        lock (_gate)
        {
            _certificateDirectories.Add(certificates);
        }

        return this;
    }

    /// <summary>Adds a valid key in the form requests are matched in: Z85 text, which is also the peer's User-Id.</summary>
    private ZapPolicy AddCurveKey(string publicKeyZ85)
    {
        lock (_gate)
        {
            _curveKeys.Add(publicKeyZ85);
        }

        return this;
    }

    internal ZapDecision Decide(string address, string mechanism, MultipartMessage request)
    {
        lock (_gate)
        {
            if (!IsAddressAllowed(address))
            {
                return ZapDecision.Deny($"Address {address} is not allowed");
            }

            switch (mechanism)
            {
                case "NULL":
                    return ZapDecision.Allow("");
                case "PLAIN" when request.Count >= 8:
                    return TryDecodeStrict(request[6].Data, out string? user) &&
                           _users.TryGetValue(user, out byte[]? password) &&
                           CryptographicOperations.FixedTimeEquals(password, request[7].Data)
                        ? ZapDecision.Allow(user)
                        : ZapDecision.Deny("Invalid user name or password");
                case "CURVE" when request.Count >= 7 && request[6].Size == Curve.KeyLength:
                    string key = Z85.Encode(request[6].Data);
                    return _anyCurveKey || _curveKeys.Contains(key) || InCertificateDirectory(key)
                        ? ZapDecision.Allow(key)
                        : ZapDecision.Deny("Unknown CURVE client key");
                default:
                    return ZapDecision.Deny($"Mechanism {mechanism} is not allowed");
            }
        }
    }

    private bool InCertificateDirectory(string key)
    {
        foreach (CertificateDirectory directory in _certificateDirectories)
        {
            if (directory.Contains(key))
            {
                return true;
            }
        }

        return false;
    }

    private bool IsAddressAllowed(string peer)
    {
        if (_allowed.Count == 0 && _denied.Count == 0)
        {
            return true;
        }

        // A peer without an IP address (ipc, inproc) matches no entry: an allow-list refuses it, a deny-list lets it be.
        bool parsed = AddressRange.TryParseAddress(peer, out IPAddress? address);
        return _allowed.Count > 0 ? parsed && AnyContains(_allowed, address!) : !parsed || !AnyContains(_denied, address!);
    }

    private static bool AnyContains(List<AddressRange> ranges, IPAddress address)
    {
        foreach (AddressRange range in ranges)
        {
            if (range.Contains(address))
            {
                return true;
            }
        }

        return false;
    }

    private ZapPolicy AddAddress(List<AddressRange> list, string address)
    {
        ArgumentNullException.ThrowIfNull(address);
        AddressRange range = AddressRange.Parse(address, nameof(address));
        lock (_gate)
        {
            list.Add(range);
        }

        return this;
    }

    private static byte[] EnsureEncodable(string text, string paramName)
    {
        try
        {
            return s_strictUtf8.GetBytes(text);
        }
        catch (EncoderFallbackException ex)
        {
            throw new ArgumentException("The text holds a lone surrogate, so it has no UTF-8 form a client could send.", paramName, ex);
        }
    }

    /// <summary>Decodes UTF-8 without replacing bad bytes, so that distinct byte strings never decode to one name.</summary>
    private static bool TryDecodeStrict(ReadOnlySpan<byte> bytes, [NotNullWhen(true)] out string? text)
    {
        try
        {
            text = s_strictUtf8.GetString(bytes);
            return true;
        }
        catch (DecoderFallbackException)
        {
            text = null;
            return false;
        }
    }
}

/// <summary>The answer to one ZAP request.</summary>
internal readonly record struct ZapDecision(string StatusCode, string StatusText, string UserId)
{
    internal static ZapDecision Allow(string userId) => new("200", "OK", userId);

    internal static ZapDecision Deny(string reason) => new("400", reason, "");
}
