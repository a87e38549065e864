using System.Text;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

public class BufferReadTests : ContextPerTest
{
    [Fact]
    public void String_option_read_into_a_buffer_returns_its_length_without_the_terminating_zero()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.ZapDomain, "global");
        Span<byte> buffer = stackalloc byte[64];

        int length = socket.GetOption(SocketOption.ZapDomain, buffer);

        Assert.Equal(6, length);
        Assert.Equal("global", Encoding.UTF8.GetString(buffer[..length]));
    }

    [Fact]
    public void Binary_option_read_into_a_buffer_returns_its_exact_bytes()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        byte[] id = [0x7F, 0x00, 0x01, 0xFF];
        socket.SetOption(SocketOption.RoutingId, id);
        var buffer = new byte[255];

        int length = socket.GetOption(SocketOption.RoutingId, buffer);

        Assert.Equal(id, buffer[..length]);
    }

    [Fact]
    public void Buffer_too_small_for_the_value_throws_ZmqException_EINVAL()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.RoutingId, "a-long-routing-id");

        var ex = Assert.Throws<ZmqException>(() => socket.GetOption(SocketOption.RoutingId, new byte[4]));

        Assert.Equal(ZmqError.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Binary_option_reads_as_utf8_text()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.RoutingId, "client-é");

        Assert.Equal("client-é", socket.GetOption<string>(SocketOption.RoutingId));
        Assert.Equal(Encoding.UTF8.GetBytes("client-é"), socket.GetOption<byte[]>(SocketOption.RoutingId));
    }

    [Fact]
    public void String_option_reads_as_bytes_without_the_terminating_zero()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.PlainUsername, "alice");

        Assert.Equal("alice"u8.ToArray(), socket.GetOption<byte[]>(SocketOption.PlainUsername));
    }

    [Fact]
    public void Empty_string_clears_a_string_option_that_allows_it()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.SocksProxy, "127.0.0.1:1080");

        socket.SetOption(SocketOption.SocksProxy, "");

        Assert.Equal("", socket.GetOption<string>(SocketOption.SocksProxy));
    }

    [Fact]
    public void Empty_PlainUsername_returns_the_socket_to_the_NULL_mechanism()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.PlainUsername, "alice");
        Assert.Equal((int)SecurityMechanism.Plain, socket.GetOption<int>(SocketOption.Mechanism));

        socket.SetOption(SocketOption.PlainUsername, "");

        Assert.Equal((int)SecurityMechanism.Null, socket.GetOption<int>(SocketOption.Mechanism));
    }
}
