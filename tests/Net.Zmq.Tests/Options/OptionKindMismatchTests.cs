using Net.Zmq.Tests.Support;
namespace Net.Zmq.Tests.Options;

public class OptionKindMismatchTests : ContextPerTest
{
    private static readonly Dictionary<string, (SocketOption Option, Action<Socket> Misuse)> s_misuses = new()
    {
        ["bool to Linger"] = (SocketOption.Linger, s => s.SetOption(SocketOption.Linger, true)),
        ["string to Linger"] = (SocketOption.Linger, s => s.SetOption(SocketOption.Linger, "100")),
        ["bytes to Linger"] = (SocketOption.Linger, s => s.SetOption(SocketOption.Linger, new byte[] { 100, 0, 0, 0 })),
        ["long to Linger"] = (SocketOption.Linger, s => s.SetOption(SocketOption.Linger, 100L)),
        ["ulong to Linger"] = (SocketOption.Linger, s => s.SetOption(SocketOption.Linger, 100UL)),
        ["int to RoutingId"] = (SocketOption.RoutingId, s => s.SetOption(SocketOption.RoutingId, 7)),
        ["bool to RoutingId"] = (SocketOption.RoutingId, s => s.SetOption(SocketOption.RoutingId, true)),
        ["TimeSpan to RoutingId"] = (SocketOption.RoutingId, s => s.SetOption(SocketOption.RoutingId, TimeSpan.FromSeconds(1))),
        ["TimeSpan to SendHighWatermark"] = (SocketOption.SendHighWatermark, s => s.SetOption(SocketOption.SendHighWatermark, TimeSpan.FromSeconds(1))),
        ["bool to SendHighWatermark"] = (SocketOption.SendHighWatermark, s => s.SetOption(SocketOption.SendHighWatermark, false)),
        ["long to SendHighWatermark"] = (SocketOption.SendHighWatermark, s => s.SetOption(SocketOption.SendHighWatermark, 10L)),
        ["string to SendHighWatermark"] = (SocketOption.SendHighWatermark, s => s.SetOption(SocketOption.SendHighWatermark, "10")),
        ["bytes to ZapDomain"] = (SocketOption.ZapDomain, s => s.SetOption(SocketOption.ZapDomain, "global"u8)),
        ["int to ZapDomain"] = (SocketOption.ZapDomain, s => s.SetOption(SocketOption.ZapDomain, 1)),
        ["int to Ipv6"] = (SocketOption.Ipv6, s => s.SetOption(SocketOption.Ipv6, 1)),
        ["TimeSpan to Ipv6"] = (SocketOption.Ipv6, s => s.SetOption(SocketOption.Ipv6, TimeSpan.Zero)),
        ["string to Ipv6"] = (SocketOption.Ipv6, s => s.SetOption(SocketOption.Ipv6, "true")),
        ["TimeSpan to MaxMessageSize"] = (SocketOption.MaxMessageSize, s => s.SetOption(SocketOption.MaxMessageSize, TimeSpan.FromSeconds(1))),
        ["ulong to MaxMessageSize"] = (SocketOption.MaxMessageSize, s => s.SetOption(SocketOption.MaxMessageSize, 10UL)),
        ["bool to Affinity"] = (SocketOption.Affinity, s => s.SetOption(SocketOption.Affinity, true)),
        ["int to CurveServerKey"] = (SocketOption.CurveServerKey, s => s.SetOption(SocketOption.CurveServerKey, 1)),
        ["bool to PlainUsername"] = (SocketOption.PlainUsername, s => s.SetOption(SocketOption.PlainUsername, true)),
        ["read RoutingId as int"] = (SocketOption.RoutingId, s => s.GetOption<int>(SocketOption.RoutingId)),
        ["read Linger as string"] = (SocketOption.Linger, s => s.GetOption<string>(SocketOption.Linger)),
        ["read Linger as bool"] = (SocketOption.Linger, s => s.GetOption<bool>(SocketOption.Linger)),
        ["read Linger as double"] = (SocketOption.Linger, s => s.GetOption<double>(SocketOption.Linger)),
        ["read Linger as nint"] = (SocketOption.Linger, s => s.GetOption<nint>(SocketOption.Linger)),
        ["read SendHighWatermark as TimeSpan"] = (SocketOption.SendHighWatermark, s => s.GetOption<TimeSpan>(SocketOption.SendHighWatermark)),
        ["read Ipv6 as int"] = (SocketOption.Ipv6, s => s.GetOption<int>(SocketOption.Ipv6)),
        ["read MaxMessageSize as int"] = (SocketOption.MaxMessageSize, s => s.GetOption<int>(SocketOption.MaxMessageSize)),
        ["read Affinity as long"] = (SocketOption.Affinity, s => s.GetOption<long>(SocketOption.Affinity)),
        ["read ZapDomain as int"] = (SocketOption.ZapDomain, s => s.GetOption<int>(SocketOption.ZapDomain)),
        ["read Linger into a buffer"] = (SocketOption.Linger, s => s.GetOption(SocketOption.Linger, new byte[4])),
    };

    public static TheoryData<string> Misuses => new(s_misuses.Keys);

    [Theory]
    [MemberData(nameof(Misuses))]
    public void Option_of_the_wrong_kind_throws_ArgumentException(string misuse)
    {
        (SocketOption option, Action<Socket> act) = s_misuses[misuse];
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ArgumentException>(() => act(socket));

        Assert.Contains(option.ToString(), ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Misuses))]
    public void Option_kind_is_checked_before_the_socket_is_touched(string misuse)
    {
        (_, Action<Socket> act) = s_misuses[misuse];
        var socket = new Socket(Context, SocketType.Dealer);
        socket.Dispose();

        // A disposed socket throws ObjectDisposedException on any native call: ArgumentException proves none was made.
        Assert.Throws<ArgumentException>(() => act(socket));
    }

    [Fact]
    public void Wrong_kind_leaves_the_option_unchanged()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.SendHighWatermark, 77);

        Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.SendHighWatermark, TimeSpan.FromSeconds(5)));

        Assert.Equal(77, socket.GetOption<int>(SocketOption.SendHighWatermark));
    }

    [Fact]
    public void Access_is_checked_before_the_socket_is_touched()
    {
        var socket = new Socket(Context, SocketType.Sub);
        socket.Dispose();

        Assert.Throws<ArgumentException>(() => socket.GetOption<byte[]>(SocketOption.Subscribe));
        Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.Type, 1));
    }

    [Fact]
    public void Int_is_accepted_for_long_and_ulong_options()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.MaxMessageSize, 4096);
        socket.SetOption(SocketOption.Affinity, 2);

        Assert.Equal(4096L, socket.GetOption<long>(SocketOption.MaxMessageSize));
        Assert.Equal(2UL, socket.GetOption<ulong>(SocketOption.Affinity));
    }

    [Fact]
    public void Unknown_option_number_throws_ArgumentOutOfRangeException()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption((SocketOption)3, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.GetOption<int>((SocketOption)1000));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.GetOption<int>((SocketOption)(-1)));
    }

    [Fact]
    public void Option_of_the_wrong_kind_throws_ArgumentException_not_ZmqException()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.Linger, true));

        Assert.Equal("value", ex.ParamName);
        Assert.Contains("Linger", ex.Message, StringComparison.Ordinal);
    }
}
