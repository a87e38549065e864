using System.Text;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// How a <see cref="ZapPolicy"/> decides: address entries (single addresses, CIDR ranges, IPv4 however libzmq spells
/// it) and PLAIN credentials compared as bytes. Requests go through a real authenticator, either from a real client
/// handshake or written by hand over the ZAP endpoint, as libzmq writes them, to give addresses and bytes that a
/// loopback client cannot produce.
/// </summary>
public sealed class ZapPolicyTests : AuthenticatorPerTest
{
    [Fact]
    public void A_deny_entry_for_an_IPv4_address_refuses_that_client_on_a_socket_with_Ipv6_on()
    {
        Authenticator.DefaultPolicy.DenyAddress("127.0.0.1");
        using var server = Ipv6Server();
        using var events = new SocketMonitor(server);
        using var client = Client(server.LastEndpoint);
        client.Send("must not arrive", SendFlags.DontWait);

        SocketMonitorEvent outcome = events.WaitFor(SocketEvents.HandshakeFailedAuth | SocketEvents.HandshakeSucceeded, Timeouts.Wait);

        Assert.Equal(SocketEvents.HandshakeFailedAuth, outcome.Event);
        Assert.Equal(400, outcome.Value);
    }

    [Theory]
    [InlineData("127.0.0.1")]
    [InlineData("::ffff:127.0.0.1")]
    [InlineData("127.0.0.0/8")]
    public void An_allow_entry_for_an_IPv4_address_admits_that_client_on_a_socket_with_Ipv6_on(string entry)
    {
        Authenticator.DefaultPolicy.AllowAddress(entry);
        using var server = Ipv6Server();
        using var client = Client(server.LastEndpoint);

        client.Send("from 127.0.0.1");

        using var message = new Message();
        Assert.True(server.Recv(message));
        Assert.Equal("from 127.0.0.1", message.ToString());
        Assert.Equal("::ffff:127.0.0.1", message.GetMetadata("Peer-Address")); // how libzmq reports the peer

    }

    [Fact]
    public void A_CIDR_deny_range_refuses_the_addresses_inside_it_and_admits_the_others()
    {
        Authenticator.DefaultPolicy.DenyAddress("127.0.0.0/31"); // 127.0.0.0 and 127.0.0.1
        using var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.ZapDomain, "test");
        server.Bind("tcp://127.0.0.1:*");
        int port = new Uri(server.LastEndpoint).Port;
        using var events = new SocketMonitor(server);

        using var inside = Client($"tcp://127.0.0.1:{port}");
        inside.Send("from 127.0.0.1", SendFlags.DontWait);
        Assert.Equal(400, events.WaitFor(SocketEvents.HandshakeFailedAuth, Timeouts.Wait).Value);

        using var outside = Client($"tcp://127.0.0.2:0;127.0.0.1:{port}");
        outside.Send("from 127.0.0.2");
        Assert.Equal("from 127.0.0.2", server.RecvString());
    }

    [Theory]
    [InlineData("10.0.0.0/8", "10.200.3.4", "200")]
    [InlineData("10.0.0.0/8", "::ffff:10.200.3.4", "200")]
    [InlineData("10.0.0.0/8", "11.0.0.1", "400")]
    [InlineData("::ffff:10.0.0.0/104", "10.1.1.1", "200")]
    [InlineData("192.168.1.128/25", "192.168.1.200", "200")]
    [InlineData("192.168.1.128/25", "192.168.1.127", "400")]
    [InlineData("2001:db8::/32", "2001:db8:ffff::1", "200")]
    [InlineData("2001:db8::/32", "2001:db9::1", "400")]
    [InlineData("::1", "127.0.0.1", "400")]
    [InlineData("0.0.0.0/0", "203.0.113.9", "200")]
    [InlineData("0.0.0.0/0", "2001:db8::1", "400")]
    [InlineData("::/0", "2001:db8::1", "200")]
    public void An_allow_list_matches_addresses_and_ranges_in_every_spelling(string entry, string peer, string expected)
    {
        Authenticator.DefaultPolicy.AllowAddress(entry);

        Assert.Equal(expected, Ask(peer, "NULL").Status);
    }

    [Theory]
    [InlineData("2001:db8::/32", "2001:0db8:0000::7", "400")]
    [InlineData("2001:db8::/32", "2001:db9::7", "200")]
    [InlineData("172.16.0.0/12", "172.31.255.255", "400")]
    [InlineData("172.16.0.0/12", "172.32.0.0", "200")]
    public void A_deny_list_matches_ranges(string entry, string peer, string expected)
    {
        Authenticator.DefaultPolicy.DenyAddress(entry);

        Assert.Equal(expected, Ask(peer, "NULL").Status);
    }

    [Theory]
    [InlineData("10.0.0.0/33")]
    [InlineData("2001:db8::/129")]
    [InlineData("10.0.0.0/")]
    [InlineData("10.0.0.0/-1")]
    [InlineData("10.0.0.0/8/8")]
    [InlineData("10.0.0.0/ 8")]
    [InlineData("::ffff:10.0.0.0/95")]
    [InlineData("localhost")]
    [InlineData("/8")]
    public void Address_entries_that_are_not_an_address_or_range_are_refused_with_an_example(string entry)
    {
        var error = Assert.Throws<ArgumentException>(() => Authenticator.DefaultPolicy.AllowAddress(entry));

        Assert.Contains("CIDR", error.Message);
        Assert.Throws<ArgumentException>(() => Authenticator.DefaultPolicy.DenyAddress(entry));
        Assert.Equal("200", Ask("10.0.0.1", "NULL").Status); // nothing was added
    }

    [Fact]
    public void A_PLAIN_user_name_with_a_byte_that_is_not_UTF_8_never_matches_a_stored_name()
    {
        Authenticator.DefaultPolicy.AddPlainUser("\uFFFD", "secret");

        Assert.Equal("400", Ask("127.0.0.1", "PLAIN", [0xFE], "secret"u8.ToArray()).Status);
        Assert.Equal("400", Ask("127.0.0.1", "PLAIN", [0xFF], "secret"u8.ToArray()).Status);
        (string status, string userId) = Ask("127.0.0.1", "PLAIN", "\uFFFD"u8.ToArray(), "secret"u8.ToArray());
        Assert.Equal("200", status);
        Assert.Equal("\uFFFD", userId);
    }

    [Fact]
    public void A_PLAIN_password_is_compared_as_the_bytes_the_client_sent()
    {
        Authenticator.DefaultPolicy.AddPlainUser("user", "p\u00E4ss\uFFFD");

        Assert.Equal("200", Ask("127.0.0.1", "PLAIN", "user"u8.ToArray(), Encoding.UTF8.GetBytes("p\u00E4ss\uFFFD")).Status);
        Assert.Equal("400", Ask("127.0.0.1", "PLAIN", "user"u8.ToArray(), [.. "p"u8, 0xE4, .. "ss"u8, 0xFE]).Status);
        Assert.Equal("400", Ask("127.0.0.1", "PLAIN", "user"u8.ToArray(), Encoding.UTF8.GetBytes("p\u00E4ss")).Status);
        Assert.Equal("400", Ask("127.0.0.1", "PLAIN", "user"u8.ToArray(), Encoding.UTF8.GetBytes("p\u00E4ss\uFFFDx")).Status);
    }

    [Fact]
    public void PLAIN_names_and_passwords_without_a_UTF_8_form_are_refused()
    {
        Assert.Throws<ArgumentException>(() => Authenticator.DefaultPolicy.AddPlainUser("\uD800", "secret"));
        Assert.Throws<ArgumentException>(() => Authenticator.DefaultPolicy.AddPlainUser("user", "x\uDC00"));

        Assert.Equal("400", Ask("127.0.0.1", "PLAIN", "user"u8.ToArray(), "x\uFFFD"u8.ToArray()).Status);
    }

    [Fact]
    public void A_real_PLAIN_client_with_a_non_ASCII_password_logs_in()
    {
        Authenticator.DefaultPolicy.AddPlainUser("j\u00FCrgen", "gr\u00FC\u00DFe-\u4E16\u754C");
        using var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.PlainServer, true);
        server.Bind("tcp://127.0.0.1:*");
        using var client = new Socket(Context, SocketType.Push);
        client.SetOption(SocketOption.PlainUsername, "j\u00FCrgen");
        client.SetOption(SocketOption.PlainPassword, "gr\u00FC\u00DFe-\u4E16\u754C");
        client.Connect(server.LastEndpoint);

        client.Send("hello");

        using var message = new Message();
        Assert.True(server.Recv(message));
        Assert.Equal("j\u00FCrgen", message.GetMetadata("User-Id"));
    }

    private Socket Ipv6Server()
    {
        var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.Ipv6, true);
        server.SetOption(SocketOption.ZapDomain, "test"); // NULL mechanism asks ZAP only with a domain
        server.Bind("tcp://127.0.0.1:*");
        return server;
    }

    private Socket Client(string endpoint)
    {
        var client = new Socket(Context, SocketType.Push);
        client.Connect(endpoint);
        return client;
    }

    private (string Status, string UserId) Ask(string address, string mechanism, params byte[][] credentials) =>
        ZapRequests.Ask(Context, "", address, mechanism, credentials);
}
