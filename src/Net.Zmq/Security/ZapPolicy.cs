using System.Net;
using Net.Zmq.Internal;

namespace Net.Zmq.Security;

/// <summary>
/// Who may connect, for one ZAP domain of a <see cref="ZapAuthenticator"/>: an IP allow-list or deny-list, a
/// PLAIN user table, and the CURVE client keys accepted. Thread-safe; changes apply to the next handshake.
/// </summary>
/// <remarks>
/// A request is checked in this order. Address: when the allow-list is not empty the peer's address must be on it;
/// otherwise an address on the deny-list is refused. Mechanism: NULL is accepted once the address passed (libzmq asks
/// about NULL only for sockets with a <see cref="SocketOption.ZapDomain"/>); PLAIN needs a matching user name and
/// password; CURVE needs an allowed client key, or <see cref="AllowAnyCurveKey"/>. Anything else is refused.
/// The authenticated identity (the PLAIN user name, or the client's Z85 public key) reaches the server as the
/// "User-Id" metadata of every message from that peer.
/// </remarks>
public sealed class ZapPolicy
{
    private readonly object _gate = new();
    private readonly HashSet<string> _allowed = [];
    private readonly HashSet<string> _denied = [];
    private readonly Dictionary<string, string> _users = new(StringComparer.Ordinal);
    private readonly HashSet<string> _curveKeys = new(StringComparer.Ordinal);
    private bool _anyCurveKey;

    internal ZapPolicy()
    {
    }

    /// <summary>Accepts peers from <paramref name="address"/> only (with any other allowed address).</summary>
    /// <exception cref="ArgumentException"><paramref name="address"/> is not an IP address.</exception>
    public ZapPolicy AllowAddress(string address) => AddAddress(_allowed, address);

    /// <summary>Refuses peers from <paramref name="address"/> (ignored while an allow-list is set).</summary>
    /// <exception cref="ArgumentException"><paramref name="address"/> is not an IP address.</exception>
    public ZapPolicy DenyAddress(string address) => AddAddress(_denied, address);

    /// <summary>Accepts PLAIN clients that present <paramref name="userName"/> and <paramref name="password"/>.</summary>
    /// <exception cref="ArgumentException">The user name is null or empty.</exception>
    /// <exception cref="ArgumentNullException">The password is null.</exception>
    public ZapPolicy AddPlainUser(string userName, string password)
    {
        ArgumentException.ThrowIfNullOrEmpty(userName);
        ArgumentNullException.ThrowIfNull(password);
        lock (_gate)
        {
            _users[userName] = password;
        }

        return this;
    }

    /// <summary>Accepts CURVE clients whose long-term public key is <paramref name="publicKeyZ85"/> (40 Z85 characters).</summary>
    /// <exception cref="ArgumentException">The key is not 40 valid Z85 characters.</exception>
    public ZapPolicy AllowCurveKey(string publicKeyZ85)
    {
        ArgumentNullException.ThrowIfNull(publicKeyZ85);
        if (publicKeyZ85.Length != 40 || !CurveKeyText.TryDecode(publicKeyZ85, out _))
        {
            ThrowHelper.ThrowArgument("A CURVE public key is 40 Z85 characters.", nameof(publicKeyZ85));
        }

        lock (_gate)
        {
            _curveKeys.Add(publicKeyZ85);
        }

        return this;
    }

    /// <summary>Accepts CURVE clients whose long-term public key is these 32 bytes.</summary>
    /// <exception cref="ArgumentException">The key is not 32 bytes.</exception>
    public ZapPolicy AllowCurveKey(ReadOnlySpan<byte> publicKey)
    {
        if (publicKey.Length != 32)
        {
            ThrowHelper.ThrowArgument("A CURVE public key is 32 bytes.", nameof(publicKey));
        }

        return AllowCurveKey(CurveKeyText.Encode(publicKey));
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

    internal ZapDecision Decide(string address, string mechanism, MultipartMessage request)
    {
        lock (_gate)
        {
            if (_allowed.Count > 0 ? !_allowed.Contains(Normalize(address)) : _denied.Contains(Normalize(address)))
            {
                return ZapDecision.Deny($"Address {address} is not allowed");
            }

            switch (mechanism)
            {
                case "NULL":
                    return ZapDecision.Allow("");
                case "PLAIN" when request.Count >= 8:
                    string user = request[6].ToString();
                    return _users.TryGetValue(user, out string? password) && password == request[7].ToString()
                        ? ZapDecision.Allow(user)
                        : ZapDecision.Deny("Invalid user name or password");
                case "CURVE" when request.Count >= 7 && request[6].Size == 32:
                    string key = CurveKeyText.Encode(request[6].Data);
                    return _anyCurveKey || _curveKeys.Contains(key)
                        ? ZapDecision.Allow(key)
                        : ZapDecision.Deny("Unknown CURVE client key");
                default:
                    return ZapDecision.Deny($"Mechanism {mechanism} is not allowed");
            }
        }
    }

    private ZapPolicy AddAddress(HashSet<string> list, string address)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (!IPAddress.TryParse(address, out IPAddress? parsed))
        {
            ThrowHelper.ThrowArgument($"'{address}' is not an IP address.", nameof(address));
        }

        lock (_gate)
        {
            list.Add(parsed.ToString());
        }

        return this;
    }

    private static string Normalize(string address) =>
        IPAddress.TryParse(address, out IPAddress? parsed) ? parsed.ToString() : address;
}

/// <summary>The answer to one ZAP request.</summary>
internal readonly record struct ZapDecision(string StatusCode, string StatusText, string UserId)
{
    internal static ZapDecision Allow(string userId) => new("200", "OK", userId);

    internal static ZapDecision Deny(string reason) => new("400", reason, "");
}
