namespace Net.Zmq.Tests.Options;

/// <summary>MaxMessageSize takes -1 for "no limit" and sizes from 0: other negative values are refused, not stored.</summary>
public sealed class UnlimitedOptionTests
{
    [Theory]
    [InlineData(-2L)]
    [InlineData(-100L)]
    [InlineData(long.MinValue)]
    public void MaxMessageSize_refuses_negative_values_other_than_minus_one(long value)
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);
        socket.SetOption(SocketOption.MaxMessageSize, 4096L);

        var asLong = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.MaxMessageSize, value));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.MaxMessageSize, (int)Math.Max(value, int.MinValue)));

        Assert.Contains("-1 (no limit)", asLong.Message, StringComparison.Ordinal);
        Assert.Equal(4096L, socket.GetOption<long>(SocketOption.MaxMessageSize));
    }

    [Theory]
    [InlineData(-1L)]
    [InlineData(0L)]
    [InlineData(1L << 40)]
    public void MaxMessageSize_takes_minus_one_and_sizes(long value)
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        socket.SetOption(SocketOption.MaxMessageSize, value);

        Assert.Equal(value, socket.GetOption<long>(SocketOption.MaxMessageSize));
    }
}
