namespace Net.Zmq.Tests.Options;

public class ContextOptionTests
{
    public static TheoryData<ContextOption, int> IntegerRoundTrips => new()
    {
        { ContextOption.IoThreads, 2 },
        { ContextOption.MaxSockets, 512 },
        { ContextOption.ThreadSchedulingPolicy, 0 },
        { ContextOption.MaxMessageSize, 1 << 20 },
        { ContextOption.ThreadNamePrefix, 7 },
    };

    public static TheoryData<ContextOption, bool> BooleanRoundTrips => new()
    {
        { ContextOption.Blocky, false },
        { ContextOption.Ipv6, true },
    };

    [Theory]
    [MemberData(nameof(IntegerRoundTrips))]
    public void Integer_context_option_round_trips_a_non_default_value(ContextOption option, int value)
    {
        using var context = new Context();
        Assert.NotEqual(value, context.GetOption(option));

        context.SetOption(option, value);

        Assert.Equal(value, context.GetOption(option));
    }

    [Theory]
    [MemberData(nameof(BooleanRoundTrips))]
    public void Boolean_context_option_round_trips_and_reads_as_zero_or_one(ContextOption option, bool value)
    {
        using var context = new Context();
        Assert.Equal(value ? 0 : 1, context.GetOption(option));

        context.SetOption(option, value);

        Assert.Equal(value ? 1 : 0, context.GetOption(option));
    }

    [Fact]
    public void Defaults_are_libzmqs()
    {
        using var context = new Context();

        Assert.Equal(1, context.GetOption(ContextOption.IoThreads));
        Assert.Equal(1023, context.GetOption(ContextOption.MaxSockets));
        Assert.Equal(int.MaxValue, context.GetOption(ContextOption.MaxMessageSize));
        Assert.Equal(1, context.GetOption(ContextOption.Blocky));
        Assert.Equal(0, context.GetOption(ContextOption.Ipv6));
    }

    [Fact]
    public void ThreadSchedulingPolicy_reads_its_default_of_minus_one()
    {
        using var context = new Context();
        System.Runtime.InteropServices.Marshal.SetLastSystemError(0); // no stale errno: see the test below

        Assert.Equal(-1, context.GetOption(ContextOption.ThreadSchedulingPolicy));
    }

    [Fact]
    public void ThreadSchedulingPolicy_reads_minus_one_even_right_after_another_call_failed_with_EINVAL()
    {
        using var context = new Context();
        using var message = new Message();
        Assert.Null(message.GetMetadata("Peer-Address")); // zmq_msg_gets found nothing: it leaves errno == EINVAL

        // zmq_ctx_get returns -1 here as the option's real value and does not touch errno; a stale errno must not
        // turn that value into an error.
        Assert.Equal(-1, context.GetOption(ContextOption.ThreadSchedulingPolicy));
    }

    [Fact]
    public void ThreadNamePrefix_can_be_negative()
    {
        using var context = new Context();

        context.SetOption(ContextOption.ThreadNamePrefix, -1);
        System.Runtime.InteropServices.Marshal.SetLastSystemError(0); // no stale errno: see ThreadSchedulingPolicy_reads_minus_one_even_right_after_another_call_failed_with_EINVAL

        Assert.Equal(-1, context.GetOption(ContextOption.ThreadNamePrefix));
    }

    [Fact]
    public void SocketLimit_is_positive_and_at_least_MaxSockets()
    {
        using var context = new Context();

        int limit = context.GetOption(ContextOption.SocketLimit);

        Assert.True(limit > 0, $"SocketLimit was {limit}");
        Assert.True(limit >= context.GetOption(ContextOption.MaxSockets));
    }

    [Fact]
    public void MessageStructSize_is_64_bytes()
    {
        using var context = new Context();

        Assert.Equal(64, context.GetOption(ContextOption.MessageStructSize));
    }

    [Fact]
    public void Write_only_thread_options_are_accepted_before_any_socket_exists()
    {
        // No socket is created in this context, so its I/O threads never start with these settings.
        using var context = new Context();

        context.SetOption(ContextOption.ThreadPriority, 0);
        context.SetOption(ContextOption.ThreadAffinityCpuAdd, 0);
        context.SetOption(ContextOption.ThreadAffinityCpuRemove, 0);
    }

    [Fact]
    public void Constructor_sets_io_threads_and_max_sockets()
    {
        using var context = new Context(2, 256);

        Assert.Equal(2, context.GetOption(ContextOption.IoThreads));
        Assert.Equal(256, context.GetOption(ContextOption.MaxSockets));
    }

    [Fact]
    public void Context_Ipv6_is_inherited_by_new_sockets()
    {
        using var context = new Context();
        context.SetOption(ContextOption.Ipv6, true);

        using var socket = new Socket(context, SocketType.Dealer);

        Assert.True(socket.GetOption<bool>(SocketOption.Ipv6));
    }

    [Fact]
    public void MaxSockets_limits_how_many_sockets_can_be_open()
    {
        using var context = new Context();
        context.SetOption(ContextOption.MaxSockets, 1);
        using var first = new Socket(context, SocketType.Dealer);

        var ex = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Dealer));

        Assert.Equal(ZmqError.EMFILE, ex.ErrorNumber);
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
}
