using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

public class WriteOnlyOptionTests : ContextPerTest
{
    public static TheoryData<SocketOption> WriteOnlyOptions => SocketOptionCases.WithUse(OptionUse.WriteOnly);

    [Theory]
    [MemberData(nameof(WriteOnlyOptions))]
    public void Write_only_option_is_accepted_on_its_socket_type(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);

        Exception? failure = Record.Exception(() => testCase.Set!(socket));

        Assert.Null(failure);
    }

    [Theory]
    [MemberData(nameof(WriteOnlyOptions))]
    public void Reading_a_write_only_option_throws_ArgumentException(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);
        testCase.Set!(socket);

        var ex = Assert.Throws<ArgumentException>(() => testCase.Misuse!(socket));

        Assert.Contains(option.ToString(), ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RouterMandatory_makes_a_send_to_an_unknown_peer_fail_with_EHOSTUNREACH()
    {
        using var router = new Socket(Context, SocketType.Router);
        router.SetOption(SocketOption.RouterMandatory, true);

        var ex = Assert.Throws<ZmqException>(() => router.Send("nobody", SendFlags.SendMore));

        Assert.Equal(ZmqError.EHOSTUNREACH, ex.ErrorNumber);
    }

    [Fact]
    public void Subscribe_and_Unsubscribe_reach_the_publisher_as_subscription_frames()
    {
        using var pair = SocketPair.Open(SocketType.XPub, SocketType.Sub, inproc: true);
        var (publisher, subscriber) = pair;

        subscriber.SetOption(SocketOption.Subscribe, "news"u8);
        Assert.Equal("\u0001news"u8.ToArray(), publisher.RecvBytes());

        subscriber.SetOption(SocketOption.Unsubscribe, "news");
        Assert.Equal("\u0000news"u8.ToArray(), publisher.RecvBytes());
    }

    [Fact]
    public void Subscribe_lets_only_matching_messages_through()
    {
        using var pair = SocketPair.Open(SocketType.XPub, SocketType.Sub, inproc: true);
        var (publisher, subscriber) = pair;
        subscriber.Subscribe("keep");
        publisher.RecvBytes(); // the subscription has arrived: what follows is filtered by it

        publisher.Send("drop 1");
        publisher.Send("keep 2");

        Assert.Equal("keep 2", subscriber.RecvString());
        Assert.False(subscriber.TryRecvString(out _));
    }

    [Fact]
    public void Reading_a_write_only_option_throws_ArgumentException_naming_the_option()
    {
        using var socket = new Socket(Context, SocketType.Sub);

        var ex = Assert.Throws<ArgumentException>(() => socket.GetOption<byte[]>(SocketOption.Subscribe));

        Assert.Equal("option", ex.ParamName);
        Assert.Contains("write-only", ex.Message, StringComparison.Ordinal);
    }
}
