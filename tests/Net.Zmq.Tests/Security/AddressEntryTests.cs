using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// Address entries are canonical dotted-quad IPv4 or RFC 4291 IPv6 text: the forms inet_aton also reads (shorthand,
/// octal, hex), which would guard another network than the one written, are refused with the entry probably meant.
/// Requests are written by hand to give the authenticator the peer addresses that matter.
/// </summary>
public sealed class AddressEntryTests : AuthenticatorPerTest
{
    [Theory]
    [InlineData("192.168/16", "192.168.1.1", "'192.168.0.0/16'")]
    [InlineData("10/8", "10.1.2.3", "'10.0.0.0/8'")]
    [InlineData("010.0.0.1", "10.0.0.1", "'10.0.0.1'")]
    [InlineData("0x0a.0.0.1", "10.0.0.1", "'10.0.0.1'")]
    [InlineData("10.0.0.1.", "10.0.0.1", "'10.0.0.1'")]
    [InlineData(" 10.0.0.1", "10.0.0.1", "'10.0.0.1'")]
    [InlineData("10.0.0.1 ", "10.0.0.1", "'10.0.0.1'")]
    [InlineData("10.0.0.0/33", "10.0.0.1", "0 to 32")]
    [InlineData("10.0.0.0/-1", "10.0.0.1", "0 to 32")]
    [InlineData("10.0.0.0/08", "10.0.0.1", "'/8'")]
    [InlineData("10.1.2.3/8", "10.1.2.3", "'10.0.0.0/8'")]
    [InlineData("192.168.1.1/24", "192.168.1.7", "'192.168.1.0/24'")]
    [InlineData("2001:db8::1/32", "2001:db8::7", "'2001:db8::/32'")]
    [InlineData("2001:db8::/129", "2001:db8::7", "0 to 128")]
    [InlineData("fe80::1%eth0", "fe80::1", "'fe80::1'")]
    [InlineData("167772161", "10.0.0.1", "four numbers")]
    [InlineData("10.1", "10.0.0.1", "four parts")]
    [InlineData("256.0.0.1", "0.0.0.1", "four numbers")]
    [InlineData("2001:db8:::1", "2001:db8::1", "only once")]
    [InlineData("2001:db8:1:2:3:4:5:6:7", "2001:db8::1", "RFC 4291")]
    [InlineData("2001:db8::12345", "2001:db8::1", "RFC 4291")]
    [InlineData("2001:db8::1::2", "2001:db8::1:0:0:2", "only once")]
    [InlineData("::127.0.0.1", "127.0.0.1", "write '127.0.0.1'")]
    [InlineData("::10.0.0.0/104", "10.0.0.1", "write '10.0.0.0/8'")]
    public void A_confusable_entry_is_refused_naming_what_was_probably_meant_and_adds_nothing(string entry, string peer, string meant)
    {
        ArgumentException denied = Assert.Throws<ArgumentException>(() => Authenticator.DefaultPolicy.DenyAddress(entry));
        ArgumentException allowed = Assert.Throws<ArgumentException>(() => Authenticator.DefaultPolicy.AllowAddress(entry));

        Assert.Contains(meant, denied.Message, StringComparison.Ordinal);
        Assert.Contains($"'{entry}'", denied.Message, StringComparison.Ordinal);
        Assert.Equal(denied.Message, allowed.Message);
        Assert.Equal("address", denied.ParamName);
        Assert.Equal("200", Ask(peer)); // neither list holds anything
    }

    [Theory]
    [InlineData("192.168.0.0/16", "192.168.1.1", "192.0.0.168")]
    [InlineData("10.0.0.0/8", "10.1.2.3", "0.0.0.10")]
    [InlineData("10.0.0.1", "10.0.0.1", "8.0.0.1")]
    [InlineData("2001:DB8:0:0::/32", "2001:db8::1", "2001:db9::1")]
    [InlineData("2001:0db8::0/32", "2001:db8::1", "2001:db9::1")]
    [InlineData("::ffff:10.0.0.0/104", "10.9.9.9", "11.0.0.1")]
    [InlineData("0.0.0.0/0", "203.0.113.9", "2001:db8::1")]
    [InlineData("::/80", "::ffff:10.0.0.1", "2001:db8::1")] // an IPv4 peer of an Ipv6 socket: ::ffff:0:0/96 is inside
    [InlineData("::/0", "10.0.0.1", "")] // every IP address is inside: outside, a peer without one (ipc)
    public void The_canonical_entry_denies_the_peers_it_names_and_no_others(string entry, string inside, string outside)
    {
        Authenticator.DefaultPolicy.DenyAddress(entry);

        Assert.Equal("400", Ask(inside));
        Assert.Equal("200", Ask(outside));
    }

    private string Ask(string peer) => ZapRequests.Ask(Context, "", peer, "NULL").Status;
}
