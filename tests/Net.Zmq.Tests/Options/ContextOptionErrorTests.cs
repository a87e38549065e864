namespace Net.Zmq.Tests.Options;

public class ContextOptionErrorTests
{
    public static TheoryData<ContextOption> WriteOnly => new(ContextOption.ThreadPriority, ContextOption.ThreadAffinityCpuAdd, ContextOption.ThreadAffinityCpuRemove);

    public static TheoryData<ContextOption> ReadOnly => new(ContextOption.SocketLimit, ContextOption.MessageStructSize);

    public static TheoryData<ContextOption> Booleans => new(ContextOption.Blocky, ContextOption.Ipv6);

    public static TheoryData<ContextOption> Integers => new(
        ContextOption.IoThreads, ContextOption.MaxSockets, ContextOption.ThreadPriority, ContextOption.ThreadSchedulingPolicy,
        ContextOption.MaxMessageSize, ContextOption.ThreadAffinityCpuAdd, ContextOption.ThreadAffinityCpuRemove, ContextOption.ThreadNamePrefix);

    [Theory]
    [MemberData(nameof(WriteOnly))]
    public void Reading_a_write_only_context_option_throws_ArgumentException(ContextOption option)
    {
        using var context = new Context();

        var ex = Assert.Throws<ArgumentException>(() => context.GetOption(option));

        Assert.Contains(option.ToString(), ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(ReadOnly))]
    public void Setting_a_read_only_context_option_throws_ArgumentException(ContextOption option)
    {
        using var context = new Context();
        int before = context.GetOption(option);

        Assert.Throws<ArgumentException>(() => context.SetOption(option, 1));
        Assert.Throws<ArgumentException>(() => context.SetOption(option, true));
        Assert.Equal(before, context.GetOption(option));
    }

    [Theory]
    [MemberData(nameof(Booleans))]
    public void Boolean_context_option_given_an_int_throws_ArgumentException(ContextOption option)
    {
        using var context = new Context();

        Assert.Throws<ArgumentException>(() => context.SetOption(option, 1));
    }

    [Theory]
    [MemberData(nameof(Integers))]
    public void Integer_context_option_given_a_bool_throws_ArgumentException(ContextOption option)
    {
        using var context = new Context();

        Assert.Throws<ArgumentException>(() => context.SetOption(option, true));
    }

    [Fact]
    public void Context_option_misuse_is_caught_before_the_context_is_touched()
    {
        var context = new Context();
        context.Dispose();

        // A disposed context throws ObjectDisposedException on any native call: ArgumentException proves none was made.
        Assert.Throws<ArgumentException>(() => context.GetOption(ContextOption.ThreadPriority));
        Assert.Throws<ArgumentException>(() => context.SetOption(ContextOption.SocketLimit, 5));
        Assert.Throws<ArgumentException>(() => context.SetOption(ContextOption.Blocky, 0));
        Assert.Throws<ArgumentException>(() => context.SetOption(ContextOption.IoThreads, false));
        Assert.Throws<ObjectDisposedException>(() => context.GetOption(ContextOption.IoThreads));
    }

    [Theory]
    [InlineData(ContextOption.IoThreads, -1)]
    [InlineData(ContextOption.MaxSockets, 0)]
    [InlineData(ContextOption.MaxMessageSize, -1)]
    [InlineData(ContextOption.ThreadSchedulingPolicy, -2)]
    [InlineData(ContextOption.ThreadAffinityCpuAdd, -1)]
    public void Context_option_value_libzmq_refuses_throws_ZmqException_EINVAL(ContextOption option, int value)
    {
        using var context = new Context();

        var ex = Assert.Throws<ZmqException>(() => context.SetOption(option, value));

        Assert.Equal(ZmqError.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Removing_a_cpu_that_was_never_added_throws_ZmqException_EINVAL()
    {
        using var context = new Context();

        var ex = Assert.Throws<ZmqException>(() => context.SetOption(ContextOption.ThreadAffinityCpuRemove, 3));

        Assert.Equal(ZmqError.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Unknown_context_option_throws_ArgumentOutOfRangeException()
    {
        using var context = new Context();

        Assert.Throws<ArgumentOutOfRangeException>(() => context.GetOption((ContextOption)99));
        Assert.Throws<ArgumentOutOfRangeException>(() => context.SetOption((ContextOption)99, 1));
    }

    [Theory]
    [InlineData(-1, 1023)]
    [InlineData(1, 0)]
    [InlineData(1, -5)]
    public void Constructor_rejects_negative_threads_and_non_positive_sockets(int ioThreads, int maxSockets)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Context(ioThreads, maxSockets));
    }

    [Fact]
    public void Negative_default_linger_other_than_infinite_throws_ArgumentOutOfRangeException()
    {
        using var context = new Context();

        Assert.Throws<ArgumentOutOfRangeException>(() => context.DefaultLinger = TimeSpan.FromSeconds(-2));
        Assert.Equal(TimeSpan.FromSeconds(1), context.DefaultLinger);
    }
}
