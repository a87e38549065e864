using Net.Zmq.Tests.Support;
namespace Net.Zmq.Tests.Errors;

public class OptionErrorTests : ContextPerTest
{
    [Fact]
    public void Option_of_the_wrong_kind_throws_ArgumentException_not_ZmqException()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.Linger, true));

        Assert.Equal("value", ex.ParamName);
        Assert.Contains("Linger", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Reading_a_write_only_option_throws_ArgumentException_naming_the_option()
    {
        using var socket = new Socket(Context, SocketType.Sub);

        var ex = Assert.Throws<ArgumentException>(() => socket.GetOption<byte[]>(SocketOption.Subscribe));

        Assert.Equal("option", ex.ParamName);
        Assert.Contains("write-only", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Writing_a_read_only_option_throws_ArgumentException_naming_the_option()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.Events, 0));

        Assert.Equal("option", ex.ParamName);
        Assert.Contains("read-only", ex.Message, StringComparison.Ordinal);
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
