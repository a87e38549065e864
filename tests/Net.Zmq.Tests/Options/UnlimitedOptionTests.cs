using Net.Zmq.Internal;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

/// <summary>
/// Negative values libzmq would take silently are refused: MaxMessageSize takes -1 for "no limit" and sizes from 0 (libzmq
/// stored any negative value); HeartbeatTtl takes 0 and up (libzmq stored -1 to -99 as 0). The other options where -1
/// means "unlimited" or "the OS default" (Linger, the timeouts, ReconnectInterval, the buffers, the TCP keepalives, UseFd)
/// are refused below -1 by libzmq itself: every numeric option is tried with -2.
/// </summary>
public sealed class UnlimitedOptionTests : ContextPerTest
{
    [Theory]
    [InlineData(-2L)]
    [InlineData(-100L)]
    [InlineData(long.MinValue)]
    public void MaxMessageSize_refuses_negative_values_other_than_minus_one(long value)
    {
        using var socket = new Socket(Context, SocketType.Dealer);
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
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.MaxMessageSize, value);

        Assert.Equal(value, socket.GetOption<long>(SocketOption.MaxMessageSize));
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(-99)]
    public void HeartbeatTtl_refuses_negative_values(int value)
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.HeartbeatTtl, 2000);

        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.HeartbeatTtl, value));

        Assert.Equal(2000, socket.GetOption<int>(SocketOption.HeartbeatTtl));
    }

    /// <summary>Numeric options where a negative value is a real value: a bit mask, and process and user ids.</summary>
    private static readonly SocketOption[] s_negativeIsAValue =
        [SocketOption.ReconnectStop, SocketOption.IpcFilterPid, SocketOption.IpcFilterUid, SocketOption.IpcFilterGid];

    public static TheoryData<SocketOption> NumericOptions => new(Enum.GetValues<SocketOption>().Where(option =>
        !s_negativeIsAValue.Contains(option)
        && SocketOptionTable.Get(option) is { CanWrite: true, Kind: OptionKind.Int32 or OptionKind.Milliseconds or OptionKind.Int64, Availability: OptionAvailability.Always }));

    [Theory]
    [MemberData(nameof(NumericOptions))]
    public void No_numeric_option_takes_minus_two(SocketOption option)
    {
        using var socket = new Socket(Context, option.ToString().StartsWith("XPub", StringComparison.Ordinal) ? SocketType.XPub : SocketType.Dealer);

        Exception? refused = Record.Exception(() => socket.SetOption(option, -2));

        Assert.True(refused is ArgumentOutOfRangeException or ZmqException, $"{option} took -2 ({refused?.GetType().Name})");
    }
}
