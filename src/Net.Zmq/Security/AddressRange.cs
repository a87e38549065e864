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
internal readonly struct AddressRange
{
    private readonly byte[] _network;
    private readonly int _prefixLength;

    private AddressRange(byte[] network, int prefixLength)
    {
        _network = network;
        _prefixLength = prefixLength;
    }

    /// <summary>Parses <c>address</c> or <c>address/prefix-length</c>; false when it is neither.</summary>
    internal static bool TryParse(string text, out AddressRange range)
    {
        range = default;
        int slash = text.IndexOf('/', StringComparison.Ordinal);
        string addressText = slash < 0 ? text : text[..slash];
        if (!TryParseAddress(addressText, out IPAddress? address))
        {
            return false;
        }

        bool writtenAsIPv6 = addressText.Contains(':', StringComparison.Ordinal);
        int prefixLength = address.AddressFamily == AddressFamily.InterNetwork ? 32 : 128;
        if (slash >= 0)
        {
            if (!int.TryParse(text.AsSpan(slash + 1), NumberStyles.None, CultureInfo.InvariantCulture, out prefixLength) ||
                prefixLength > (writtenAsIPv6 ? 128 : 32))
            {
                return false;
            }

            // "::ffff:10.0.0.0/104" names the same addresses as "10.0.0.0/8".
            if (writtenAsIPv6 && address.AddressFamily == AddressFamily.InterNetwork)
            {
                prefixLength -= 96;
                if (prefixLength < 0)
                {
                    return false;
                }
            }
        }

        byte[] network = address.GetAddressBytes();
        ClearHostBits(network, prefixLength);
        range = new AddressRange(network, prefixLength);
        return true;
    }

    /// <summary>True when <paramref name="peerAddress"/>, in any spelling libzmq uses, lies in this range.</summary>
    internal bool Contains(IPAddress peerAddress)
    {
        Span<byte> peer = stackalloc byte[16];
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

    /// <summary>Parses an address and maps an IPv4-mapped IPv6 address to IPv4; false when it is not an address.</summary>
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

    private static void ClearHostBits(byte[] address, int prefixLength)
    {
        for (int bit = prefixLength; bit < address.Length * 8; bit++)
        {
            address[bit / 8] &= (byte)~(0x80 >> (bit % 8));
        }
    }
}
