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

    [Fact]
    public void HeartbeatTtl_is_kept_in_deciseconds()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.HeartbeatTtl, 1999);

        Assert.Equal(1900, socket.GetOption<int>(SocketOption.HeartbeatTtl));
    }
}
