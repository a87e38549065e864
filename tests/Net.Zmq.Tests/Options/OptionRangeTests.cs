using Net.Zmq.Tests.Support;
namespace Net.Zmq.Tests.Options;

public class OptionRangeTests : ContextPerTest
{
    private static readonly Dictionary<string, Action<Socket>> s_outOfRange = new()
    {
        ["Linger -2"] = s => s.SetOption(SocketOption.Linger, -2),
        ["ReconnectInterval -2"] = s => s.SetOption(SocketOption.ReconnectInterval, -2),
        ["ReceiveTimeout -2"] = s => s.SetOption(SocketOption.ReceiveTimeout, -2),
        ["SendHighWatermark -1"] = s => s.SetOption(SocketOption.SendHighWatermark, -1),
        ["ReceiveHighWatermark -1"] = s => s.SetOption(SocketOption.ReceiveHighWatermark, -1),
        ["Backlog -1"] = s => s.SetOption(SocketOption.Backlog, -1),
        ["Rate 0"] = s => s.SetOption(SocketOption.Rate, 0),
        ["MulticastHops 0"] = s => s.SetOption(SocketOption.MulticastHops, 0),
        ["MulticastMaxTpdu 0"] = s => s.SetOption(SocketOption.MulticastMaxTpdu, 0),
        ["TcpKeepalive 2"] = s => s.SetOption(SocketOption.TcpKeepalive, 2),
        ["HeartbeatTtl over 6553.5 s"] = s => s.SetOption(SocketOption.HeartbeatTtl, 6_600_000),
        ["GssapiPrincipalNameType 3"] = s => s.SetOption(SocketOption.GssapiPrincipalNameType, 3),
        ["empty RoutingId"] = s => s.SetOption(SocketOption.RoutingId, Array.Empty<byte>()),
        ["empty RoutingId string"] = s => s.SetOption(SocketOption.RoutingId, ""),
        ["256-byte RoutingId"] = s => s.SetOption(SocketOption.RoutingId, new byte[256]),
        ["empty ZapDomain (libzmq 4.3 refuses it)"] = s => s.SetOption(SocketOption.ZapDomain, ""),
        ["256-character ZapDomain"] = s => s.SetOption(SocketOption.ZapDomain, new string('z', 256)),
        ["256-character PlainUsername"] = s => s.SetOption(SocketOption.PlainUsername, new string('u', 256)),
        ["17-character BindToDevice"] = s => s.SetOption(SocketOption.BindToDevice, new string('d', 17)),
    };

    public static TheoryData<string> OutOfRange => new(s_outOfRange.Keys);

    [Theory]
    [MemberData(nameof(OutOfRange))]
    public void Value_libzmq_refuses_throws_ZmqException_EINVAL(string value)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ZmqException>(() => s_outOfRange[value](socket));

        Assert.Equal(ZmqError.EINVAL, ex.ErrorNumber);
        Assert.IsNotType<ContextTerminatedException>(ex);
    }

    [Fact]
    public void Refused_value_leaves_the_previous_value_in_place()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.Linger, 250);

        Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.Linger, -2));

        Assert.Equal(250, socket.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public void Refused_value_message_names_the_option_and_the_error()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.SendHighWatermark, -1));

        Assert.Contains("SendHighWatermark", ex.Message, StringComparison.Ordinal);
        Assert.Contains($"errno {ZmqError.EINVAL}", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Negative_value_for_an_unsigned_option_throws_ArgumentOutOfRangeException()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.Affinity, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.Affinity, -1L));
        Assert.Equal(0UL, socket.GetOption<ulong>(SocketOption.Affinity));
    }

    [Fact]
    public void Boundary_values_libzmq_accepts_are_stored()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, -1);
        socket.SetOption(SocketOption.SendHighWatermark, 0);
        socket.SetOption(SocketOption.RoutingId, Enumerable.Repeat((byte)'r', 255).ToArray());
        socket.SetOption(SocketOption.MaxMessageSize, -1L);

        Assert.Equal(-1, socket.GetOption<int>(SocketOption.Linger));
        Assert.Equal(0, socket.GetOption<int>(SocketOption.SendHighWatermark));
        Assert.Equal(255, socket.GetOption<byte[]>(SocketOption.RoutingId).Length);
        Assert.Equal(-1L, socket.GetOption<long>(SocketOption.MaxMessageSize));
    }

    [Fact]
    public void Value_out_of_range_throws_ZmqException_EINVAL()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var linger = Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.Linger, -2));
        var watermark = Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.SendHighWatermark, -1));
        var routingId = Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.RoutingId, ReadOnlySpan<byte>.Empty));

        Assert.Equal(ZmqError.EINVAL, linger.ErrorNumber);
        Assert.Equal(ZmqError.EINVAL, watermark.ErrorNumber);
        Assert.Equal(ZmqError.EINVAL, routingId.ErrorNumber);
    }
}
