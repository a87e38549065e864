using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Net.Zmq.Security;

/// <summary>
/// One entry of a <see cref="ZapPolicy"/> address list: a single address or a CIDR range. IPv4 addresses written as
/// IPv4-mapped IPv6 (<c>::ffff:a.b.c.d</c>, as libzmq reports IPv4 peers of a socket with <see cref="SocketOption.Ipv6"/>)
/// are stored and compared as IPv4, so an entry matches however the peer's address is spelled.
/// </summary>
/// <remarks>
/// Entries are parsed strictly, not with <see cref="IPAddress.TryParse(string, out IPAddress)"/>: that parser takes
/// inet_aton's forms (<c>10/8</c> is 0.0.0.10/8 to it, <c>010.0.0.1</c> is 8.0.0.1, <c>0x0a.0.0.1</c> is 10.0.0.1), which
/// nobody writes on purpose and which would silently guard another network. IPv4 is four decimal numbers 0 to 255
/// without leading zeros; IPv6 is RFC 4291 text (RFC 5952's canonical form is one of its spellings), without a zone id;
/// a prefix length is decimal, in range, and leaves no host bit set. Anything else is refused with a message that shows
/// the entry the writer most likely meant.
/// </remarks>
internal readonly struct AddressRange
{
    private const string Examples = "an entry is an address or a CIDR range, for example 10.0.0.1, 10.0.0.0/8 or 2001:db8::/32";

    private readonly byte[] _network;
    private readonly int _prefixLength;

    private AddressRange(byte[] network, int prefixLength)
    {
        _network = network;
        _prefixLength = prefixLength;
    }

    /// <summary>Parses <c>address</c> or <c>address/prefix-length</c>.</summary>
    /// <exception cref="ArgumentException">It is neither, in the strict form; the message shows what was probably meant.</exception>
    internal static AddressRange Parse(string text, string paramName)
    {
        if (TryParse(text, out AddressRange range, out string? problem))
        {
            return range;
        }

        throw new ArgumentException($"'{text}' is not accepted as an address entry: {problem} ({Examples}).", paramName);
    }

    /// <summary>
    /// True when <paramref name="peerAddress"/>, in any spelling libzmq uses, lies in this range. An IPv4 peer is also
    /// in an IPv6 range that holds its IPv4-mapped form (<c>::/0</c> and <c>::/80</c> hold every IPv4 address).
    /// </summary>
    internal bool Contains(IPAddress peerAddress)
    {
        Span<byte> peer = stackalloc byte[16];
        if (peerAddress.AddressFamily == AddressFamily.InterNetwork && _network.Length == 16)
        {
            peerAddress = peerAddress.MapToIPv6();
        }

        if (!peerAddress.TryWriteBytes(peer, out int length) || length != _network.Length)
        {
            return false;
        }

        int fullBytes = _prefixLength / 8;
        if (!peer[..fullBytes].SequenceEqual(_network.AsSpan(0, fullBytes)))
        {
            return false;
        }

        int remainingBits = _prefixLength % 8;
        if (remainingBits == 0)
        {
            return true;
        }

        int mask = 0xFF << (8 - remainingBits) & 0xFF;
        return (peer[fullBytes] & mask) == _network[fullBytes];
    }

    /// <summary>
    /// Parses a peer's address as libzmq reports it (canonical text from inet_ntop, possibly with a zone id) and maps an
    /// IPv4-mapped IPv6 address to IPv4; false when it is not an address (an ipc or inproc peer).
    /// </summary>
    internal static bool TryParseAddress(string text, [NotNullWhen(true)] out IPAddress? address)
    {
        if (!IPAddress.TryParse(text, out address))
        {
            return false;
        }

        if (address.IsIPv4MappedToIPv6)
        {
            address = address.MapToIPv4();
        }

        return true;
    }

    /// <inheritdoc/>
    public override string ToString() => $"{new IPAddress(_network)}/{_prefixLength}";

    private static bool TryParse(string text, out AddressRange range, [NotNullWhen(false)] out string? problem)
    {
        range = default;
        string trimmed = text.Trim();
        if (trimmed.Length != text.Length)
        {
            problem = $"it has spaces around it; write '{trimmed}'";
            return false;
        }

        int slash = text.IndexOf('/', StringComparison.Ordinal);
        string addressText = slash < 0 ? text : text[..slash];
        string? prefixText = slash < 0 ? null : text[(slash + 1)..];
        bool writtenAsIPv6 = addressText.Contains(':', StringComparison.Ordinal);
        byte[]? bytes = writtenAsIPv6 ? ParseIPv6(addressText, out problem) : ParseIPv4(addressText, prefixText, out problem);
        if (bytes is null)
        {
            problem ??= "it is not an address";
            return false;
        }

        int maximum = bytes.Length * 8;
        int prefixLength = maximum;
        if (prefixText is not null && !TryParsePrefix(prefixText, maximum, out prefixLength, out problem))
        {
            return false;
        }

        // "::ffff:10.0.0.0/104" names the same addresses as "10.0.0.0/8".
        var address = new IPAddress(bytes);
        if (writtenAsIPv6 && addressText.Contains('.', StringComparison.Ordinal) && IsIPv4Compatible(bytes))
        {
            string ipv4 = new IPAddress(bytes.AsSpan(12)).ToString();
            string meant = prefixText is null ? ipv4 : prefixLength >= 96 ? $"{ipv4}/{prefixLength - 96}" : $"{ipv4} with an IPv4 prefix";
            problem = $"'{addressText}' is a deprecated IPv4-compatible IPv6 address, which libzmq never reports for a peer; write '{meant}', which matches those IPv4 peers however libzmq spells them";
            return false;
        }

        if (address.IsIPv4MappedToIPv6)
        {
            if (prefixLength < 96)
            {
                problem = "a prefix on an IPv4-mapped address is 96 plus the IPv4 prefix (/104 for a /8); write the IPv4 range itself, for example '10.0.0.0/8'";
                return false;
            }

            bytes = address.MapToIPv4().GetAddressBytes();
            prefixLength -= 96;
        }

        byte[] network = (byte[])bytes.Clone();
        ClearHostBits(network, prefixLength);
        if (!network.AsSpan().SequenceEqual(bytes))
        {
            string networkText = new IPAddress(network).ToString();
            problem = $"host bits are set after the /{prefixText}; the network is '{networkText}/{prefixLength}' (or write '{addressText}' alone for one address)";
            return false;
        }

        range = new AddressRange(network, prefixLength);
        return true;
    }

    /// <summary>
    /// Whether an IPv6 address is ::a.b.c.d with a.b.c.d outside 0.0.0.0/8: its first 96 bits zero (RFC 4291's deprecated
    /// IPv4-compatible form; ::0.0.0.1 is ::1, and ::0.0.0.0 is ::).
    /// </summary>
    private static bool IsIPv4Compatible(byte[] bytes) =>
        bytes.Length == 16 && bytes.AsSpan(0, 12).IndexOfAnyExcept((byte)0) < 0 && bytes[12] != 0;

    private static bool TryParsePrefix(string text, int maximum, out int prefixLength, [NotNullWhen(false)] out string? problem)
    {
        prefixLength = 0;
        if (text.Length == 0 || text.Length > 3 || !text.All(char.IsAsciiDigit))
        {
            problem = $"the prefix length after '/' must be a number from 0 to {maximum}";
            return false;
        }

        prefixLength = int.Parse(text, NumberStyles.None, CultureInfo.InvariantCulture);
        if (prefixLength > maximum)
        {
            problem = $"the prefix length {prefixLength} is out of range: 0 to {maximum} for {(maximum == 32 ? "IPv4" : "IPv6")}";
            return false;
        }

        if (text.Length > 1 && text[0] == '0')
        {
            problem = $"the prefix length has a leading zero; write '/{prefixLength}'";
            return false;
        }

        problem = null;
        return true;
    }

    /// <summary>
    /// Four decimal parts without leading zeros. For anything else, <paramref name="problem"/> says what inet_aton would
    /// have made of it and what was probably meant.
    /// </summary>
    private static byte[]? ParseIPv4(string text, string? prefixText, out string? problem)
    {
        string[] parts = text.Split('.');
        var bytes = new byte[4];
        bool strict = parts.Length == 4;
        for (int i = 0; strict && i < 4; i++)
        {
            string part = parts[i];
            strict = part.Length is > 0 and <= 3 && part.All(char.IsAsciiDigit) && (part.Length == 1 || part[0] != '0') &&
                     int.Parse(part, NumberStyles.None, CultureInfo.InvariantCulture) <= 255;
            if (strict)
            {
                bytes[i] = byte.Parse(part, NumberStyles.None, CultureInfo.InvariantCulture);
            }
        }

        if (strict)
        {
            problem = null;
            return bytes;
        }

        problem = DescribeIPv4Confusion(text, parts, prefixText);
        return null;
    }

    private static string DescribeIPv4Confusion(string text, string[] parts, string? prefixText)
    {
        string suffix = prefixText is null ? "" : "/" + prefixText;
        if (parts.Length > 1 && parts[^1].Length == 0)
        {
            return $"it ends with a dot; write '{text.TrimEnd('.')}{suffix}'";
        }

        // Read each part as its writer probably meant it: decimal even with leading zeros, hex only with 0x.
        var values = new List<long>();
        bool hex = false, leadingZero = false;
        foreach (string part in parts)
        {
            if (part.StartsWith("0x", StringComparison.OrdinalIgnoreCase) &&
                long.TryParse(part.AsSpan(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out long hexValue))
            {
                hex = true;
                values.Add(hexValue);
            }
            else if (part.Length is > 0 and <= 10 && part.All(char.IsAsciiDigit))
            {
                leadingZero |= part.Length > 1 && part[0] == '0';
                values.Add(long.Parse(part, NumberStyles.None, CultureInfo.InvariantCulture));
            }
            else
            {
                return "it is not an IPv4 address (four numbers from 0 to 255 separated by dots) nor IPv6 text";
            }
        }

        if (values.Count == 4 && values.All(v => v <= 255))
        {
            string meant = string.Join('.', values);
            return hex
                ? $"parts are written in hexadecimal; write the decimal '{meant}{suffix}'"
                : $"a part has a leading zero, which inet_aton reads as octal (so '{text}' could mean {OctalMeaning(parts)}); write '{meant}{suffix}'";
        }

        if (values.Count < 4 && values.All(v => v <= 255) && !hex && !leadingZero)
        {
            string padded = string.Join('.', values.Concat(Enumerable.Repeat(0L, 4 - values.Count)));
            return prefixText is null
                ? $"it has {values.Count} part{(values.Count == 1 ? "" : "s")}, a shorthand inet_aton fills from the right; write all four parts (for example '{padded}/{values.Count * 8}' for the network, or the full address)"
                : $"it has {values.Count} part{(values.Count == 1 ? "" : "s")}, a shorthand inet_aton reads as another address; write '{padded}/{prefixText}'";
        }

        return "it is not an IPv4 address (four numbers from 0 to 255 separated by dots, no leading zeros) nor IPv6 text";
    }

    private static string OctalMeaning(string[] parts)
    {
        var octets = new List<string>();
        foreach (string part in parts)
        {
            bool octal = part.Length > 1 && part[0] == '0' && part.All(c => c is >= '0' and <= '7');
            octets.Add(octal ? Convert.ToInt64(part, 8).ToString(CultureInfo.InvariantCulture) : part.TrimStart('0').PadLeft(1, '0'));
        }

        return string.Join('.', octets);
    }

    /// <summary>RFC 4291 text: up to eight groups of one to four hex digits, one "::" at most, an IPv4 tail allowed.</summary>
    private static byte[]? ParseIPv6(string text, out string? problem)
    {
        problem = null;
        if (text.Contains('%', StringComparison.Ordinal))
        {
            problem = $"a zone id ('%...') is not compared by an address list; write '{text[..text.IndexOf('%', StringComparison.Ordinal)]}'";
            return null;
        }

        int doubleColon = text.IndexOf("::", StringComparison.Ordinal);
        if (doubleColon >= 0 && text.IndexOf("::", doubleColon + 1, StringComparison.Ordinal) >= 0)
        {
            problem = "'::' may appear only once in IPv6 text";
            return null;
        }

        int groups = 0;
        bool valid = true;
        string[] pieces = doubleColon >= 0
            ? [.. Split(text[..doubleColon]), .. Split(text[(doubleColon + 2)..])]
            : Split(text);
        for (int i = 0; valid && i < pieces.Length; i++)
        {
            string piece = pieces[i];
            if (i == pieces.Length - 1 && piece.Contains('.', StringComparison.Ordinal))
            {
                valid = ParseIPv4(piece, null, out _) is not null;
                groups += 2;
            }
            else
            {
                valid = piece.Length is > 0 and <= 4 && piece.All(char.IsAsciiHexDigit);
                groups++;
            }
        }

        valid &= doubleColon >= 0 ? groups < 8 : groups == 8;
        if (!valid || !IPAddress.TryParse(text, out IPAddress? address) || address.AddressFamily != AddressFamily.InterNetworkV6)
        {
            problem = "it is not IPv6 text as RFC 4291 writes it (eight groups of one to four hex digits, '::' once for a run of zero groups, an IPv4 tail in four decimal parts)";
            return null;
        }

        return address.GetAddressBytes();
    }

    private static string[] Split(string text) => text.Length == 0 ? [] : text.Split(':');

    private static void ClearHostBits(byte[] address, int prefixLength)
    {
        for (int bit = prefixLength; bit < address.Length * 8; bit++)
        {
            address[bit / 8] &= (byte)~(0x80 >> (bit % 8));
        }
    }
}
