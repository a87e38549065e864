using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

public class TimeOptionTests : ContextPerTest
{
    [Fact]
    public void Linger_round_trips_as_TimeSpan()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds(1234));

        Assert.Equal(TimeSpan.FromMilliseconds(1234), socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void Linger_round_trips_as_int_milliseconds()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, 321);

        Assert.Equal(321, socket.GetOption<int>(SocketOption.Linger));
        Assert.Equal(321L, socket.GetOption<long>(SocketOption.Linger));
        Assert.Equal(TimeSpan.FromMilliseconds(321), socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void Infinite_TimeSpan_is_stored_as_minus_one()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.ReceiveTimeout, Timeout.InfiniteTimeSpan);

        Assert.Equal(-1, socket.GetOption<int>(SocketOption.ReceiveTimeout));
    }

    [Fact]
    public void Minus_one_milliseconds_reads_back_as_Infinite_TimeSpan()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.SendTimeout, 100);

        socket.SetOption(SocketOption.SendTimeout, -1);

        Assert.Equal(Timeout.InfiniteTimeSpan, socket.GetOption<TimeSpan>(SocketOption.SendTimeout));
    }

    [Fact]
    public void Zero_TimeSpan_is_zero_milliseconds()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, TimeSpan.Zero);

        Assert.Equal(0, socket.GetOption<int>(SocketOption.Linger));
        Assert.Equal(TimeSpan.Zero, socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void Negative_TimeSpan_other_than_infinite_is_rejected_before_libzmq()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.Linger, TimeSpan.FromSeconds(1));

        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds(-2)));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds((double)int.MaxValue + 1)));
        Assert.Equal(TimeSpan.FromSeconds(1), socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    /// <summary>libzmq keeps HeartbeatTtl in tenths of a second: rounded up, so 99 ms does not become 0 (off).</summary>
    [Theory]
    [InlineData(1999, 2000)]
    [InlineData(150, 200)]
    [InlineData(99, 100)]
    [InlineData(100, 100)]
    [InlineData(0, 0)]
    [InlineData(6_553_550, 6_553_500)]
    public void HeartbeatTtl_is_kept_in_deciseconds_rounded_up(int set, int read)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.HeartbeatTtl, set);

        Assert.Equal(read, socket.GetOption<int>(SocketOption.HeartbeatTtl));
    }

    /// <summary>A fraction of a millisecond counts as a whole one: a positive time never becomes libzmq's 0 ("do not wait").</summary>
    [Fact]
    public void A_fraction_of_a_millisecond_rounds_up()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.ReceiveTimeout, TimeSpan.FromTicks(5_000)); // 0.5 ms
        Assert.Equal(TimeSpan.FromMilliseconds(1), socket.GetOption<TimeSpan>(SocketOption.ReceiveTimeout));
        socket.SetOption(SocketOption.HandshakeInterval, TimeSpan.FromTicks(10_001)); // just over 1 ms
        Assert.Equal(TimeSpan.FromMilliseconds(2), socket.GetOption<TimeSpan>(SocketOption.HandshakeInterval));
    }

    /// <summary>Only Linger, the timeouts and ReconnectInterval take libzmq's −1; the other times say what their 0 means instead.</summary>
    [Theory]
    [InlineData(SocketOption.HandshakeInterval)]
    [InlineData(SocketOption.ConnectTimeout)]
    [InlineData(SocketOption.ReconnectIntervalMax)]
    [InlineData(SocketOption.HeartbeatInterval)]
    [InlineData(SocketOption.HeartbeatTimeout)]
    [InlineData(SocketOption.HeartbeatTtl)]
    public void Infinite_is_refused_by_the_times_libzmq_has_no_infinite_for(SocketOption option)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var infinite = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(option, Timeout.InfiniteTimeSpan));
        Assert.Contains($"{option} takes 0 or more milliseconds", infinite.Message);
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(option, -1));
        socket.SetOption(option, TimeSpan.Zero);
        socket.SetOption(SocketOption.ReconnectInterval, Timeout.InfiniteTimeSpan); // never reconnect: taken
    }
}
