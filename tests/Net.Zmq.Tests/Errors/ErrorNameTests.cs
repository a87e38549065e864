using System.Reflection;
using Net.Zmq.Internal;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Errors;

/// <summary>
/// Error messages name the error (EFSM, not only libzmq's number 156384763) and say what usually causes it; the
/// EINVAL libzmq gives a bad endpoint or a misplaced subscription is explained.
/// </summary>
public sealed class ErrorNameTests
{
    public static TheoryData<string> ErrorNames =>
        new(typeof(ZmqError).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name));

    [Theory]
    [MemberData(nameof(ErrorNames))]
    public void Every_error_number_ZmqError_knows_is_named_with_its_usual_cause(string name)
    {
        int value = (int)typeof(ZmqError).GetField(name)!.GetValue(null)!;

        string message = ThrowHelper.CreateZmqException(value, "Doing it").Message;

        Assert.Contains($"({name}, errno {value})", message, StringComparison.Ordinal);
        string cause = message[(message.IndexOf(')', StringComparison.Ordinal) + 1)..];
        Assert.True(cause.Length > 20, $"no cause given after the name: '{message}'");
    }

    [Fact]
    public void A_REQ_sending_twice_gets_EFSM_by_name_and_the_rule_it_broke()
    {
        using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
        var (_, req) = pair;
        Assert.True(req.Send("first"));

        var error = Assert.Throws<ZmqException>(() => req.Send("second"));

        Assert.Equal(ZmqError.EFSM, error.ErrorNumber);
        Assert.Contains($"(EFSM, errno {ZmqError.EFSM})", error.Message, StringComparison.Ordinal);
        Assert.Contains("send and receive must alternate", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Binding_a_port_in_use_gets_EADDRINUSE_by_name_and_what_to_do()
    {
        using Context context = Sockets.NewContext();
        using Socket first = Sockets.New(context, SocketType.Pull);
        using Socket second = Sockets.New(context, SocketType.Pull);
        string endpoint = Endpoints.BindTcp(first);

        var error = Assert.Throws<ZmqException>(() => second.Bind(endpoint));

        Assert.Equal(ZmqError.EADDRINUSE, error.ErrorNumber);
        Assert.Contains("EADDRINUSE", error.Message, StringComparison.Ordinal);
        Assert.Contains("tcp://host:*", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(SocketType.Pub)]
    [InlineData(SocketType.Dealer)]
    [InlineData(SocketType.XPub)]
    public void Subscribing_on_a_socket_that_does_not_subscribe_says_so(SocketType type)
    {
        using Context context = Sockets.NewContext();
        using Socket socket = Sockets.New(context, type);

        var subscribe = Assert.Throws<ZmqException>(() => socket.Subscribe("topic"));
        var unsubscribe = Assert.Throws<ZmqException>(() => socket.Unsubscribe("topic"u8));

        Assert.Equal(ZmqError.EINVAL, subscribe.ErrorNumber);
        Assert.Contains($"Only SUB and XSUB sockets subscribe; this is a {type} socket", subscribe.Message, StringComparison.Ordinal);
        Assert.Contains("Only SUB and XSUB sockets subscribe", unsubscribe.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("tcp://127.0.0.1", "needs a port")]
    [InlineData("tcp://localhost", "needs a port")]
    [InlineData("tcp://127.0.0.1:abc", "'abc' is not a port")]
    [InlineData("garbage", "transport://address")]
    [InlineData("tcp://", "no address after tcp://")]
    public void A_malformed_endpoint_is_explained(string endpoint, string explanation)
    {
        using Context context = Sockets.NewContext();
        using Socket socket = Sockets.New(context, SocketType.Pull);

        var bind = Assert.Throws<ZmqException>(() => socket.Bind(endpoint));
        var connect = Assert.Throws<ZmqException>(() => socket.Connect(endpoint));

        Assert.Equal(ZmqError.EINVAL, bind.ErrorNumber);
        Assert.Contains(explanation, bind.Message, StringComparison.Ordinal);
        Assert.Contains(explanation, connect.Message, StringComparison.Ordinal);
        Assert.Contains(endpoint, bind.Message, StringComparison.Ordinal);
    }
}
