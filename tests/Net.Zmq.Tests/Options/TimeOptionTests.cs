namespace Net.Zmq.Tests.Options;

public class TimeOptionTests
{
    [Fact]
    public void Linger_round_trips_as_TimeSpan()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds(1234));

        Assert.Equal(TimeSpan.FromMilliseconds(1234), socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void Linger_round_trips_as_int_milliseconds()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, 321);

        Assert.Equal(321, socket.GetOption<int>(SocketOption.Linger));
        Assert.Equal(321L, socket.GetOption<long>(SocketOption.Linger));
        Assert.Equal(TimeSpan.FromMilliseconds(321), socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void Infinite_TimeSpan_is_stored_as_minus_one()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        socket.SetOption(SocketOption.ReceiveTimeout, Timeout.InfiniteTimeSpan);

        Assert.Equal(-1, socket.GetOption<int>(SocketOption.ReceiveTimeout));
    }

    [Fact]
    public void Minus_one_milliseconds_reads_back_as_Infinite_TimeSpan()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);
        socket.SetOption(SocketOption.SendTimeout, 100);

        socket.SetOption(SocketOption.SendTimeout, -1);

        Assert.Equal(Timeout.InfiniteTimeSpan, socket.GetOption<TimeSpan>(SocketOption.SendTimeout));
    }

    [Fact]
    public void Zero_TimeSpan_is_zero_milliseconds()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        socket.SetOption(SocketOption.Linger, TimeSpan.Zero);

        Assert.Equal(0, socket.GetOption<int>(SocketOption.Linger));
        Assert.Equal(TimeSpan.Zero, socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void Negative_TimeSpan_other_than_infinite_is_rejected_before_libzmq()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds(-2)));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds((double)int.MaxValue + 1)));
        Assert.Equal(TimeSpan.FromSeconds(1), socket.GetOption<TimeSpan>(SocketOption.Linger));
    }

    [Fact]
    public void New_socket_gets_the_contexts_default_linger_of_one_second()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        Assert.Equal(TimeSpan.FromSeconds(1), context.DefaultLinger);
        Assert.Equal(1000, socket.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public void Changed_default_linger_applies_to_sockets_created_afterwards()
    {
        using var context = new Context();
        using var before = new Socket(context, SocketType.Dealer);

        context.DefaultLinger = TimeSpan.FromMilliseconds(50);
        using var after = new Socket(context, SocketType.Dealer);

        Assert.Equal(1000, before.GetOption<int>(SocketOption.Linger));
        Assert.Equal(50, after.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public void Infinite_default_linger_leaves_libzmqs_own_default_of_minus_one()
    {
        using var context = new Context { DefaultLinger = Timeout.InfiniteTimeSpan };
        using var socket = new Socket(context, SocketType.Dealer);

        Assert.Equal(Timeout.InfiniteTimeSpan, context.DefaultLinger);
        Assert.Equal(-1, socket.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public void HeartbeatTtl_is_kept_in_deciseconds()
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Dealer);

        socket.SetOption(SocketOption.HeartbeatTtl, 1999);

        Assert.Equal(1900, socket.GetOption<int>(SocketOption.HeartbeatTtl));
    }
}
