using Net.Zmq.Tests.Support;
namespace Net.Zmq.Tests.Errors;

public class ArgumentErrorTests : ContextPerTest
{
    [Fact]
    public void Null_endpoint_throws_ArgumentNullException()
    {
        using var socket = new Socket(Context, SocketType.Pair);

        Assert.Throws<ArgumentNullException>(() => socket.Bind(null!));
        Assert.Throws<ArgumentNullException>(() => socket.Connect(null!));
        Assert.Throws<ArgumentNullException>(() => socket.Unbind(null!));
        Assert.Throws<ArgumentNullException>(() => socket.Disconnect(null!));
    }

    [Fact]
    public void Empty_endpoint_throws_ArgumentException()
    {
        using var socket = new Socket(Context, SocketType.Pair);

        Assert.Throws<ArgumentException>(() => socket.Bind(""));
        Assert.Throws<ArgumentException>(() => socket.Connect(""));
        Assert.Throws<ArgumentException>(() => socket.Unbind(""));
        Assert.Throws<ArgumentException>(() => socket.Disconnect(""));
    }

    [Fact]
    public void Null_send_arguments_throw_ArgumentNullException()
    {
        using var socket = new Socket(Context, SocketType.Pair);

        Assert.Throws<ArgumentNullException>(() => socket.Send((byte[])null!));
        Assert.Throws<ArgumentNullException>(() => socket.Send((string)null!));
        Assert.Throws<ArgumentNullException>(() => socket.Send((Message)null!));
        Assert.Throws<ArgumentNullException>(() => socket.Send(0, 4));
        Assert.Throws<ArgumentNullException>(() => socket.SendMultipart((MultipartMessage)null!));
        Assert.Throws<ArgumentNullException>(() => socket.SendMultipart((IReadOnlyList<byte[]>)null!));
        Assert.Throws<ArgumentNullException>(() => socket.SendMultipart([[1], null!]));
    }

    [Fact]
    public void Empty_multipart_message_throws_ArgumentException()
    {
        using var socket = new Socket(Context, SocketType.Pair);
        using var empty = new MultipartMessage();

        Assert.Throws<ArgumentException>(() => socket.SendMultipart(empty));
        Assert.Throws<ArgumentException>(() => socket.SendMultipart(Array.Empty<byte[]>()));
    }

    [Fact]
    public void Null_receive_arguments_throw_ArgumentNullException()
    {
        using var socket = new Socket(Context, SocketType.Pair);

        Assert.Throws<ArgumentNullException>(() => socket.Recv((byte[])null!));
        Assert.Throws<ArgumentNullException>(() => socket.Recv((Message)null!));
        Assert.Throws<ArgumentNullException>(() => socket.Recv(0, 4));
        Assert.Throws<ArgumentNullException>(() => socket.RecvMultipart(null!));
    }

    [Fact]
    public void Negative_native_sizes_throw_ArgumentOutOfRangeException()
    {
        using var socket = new Socket(Context, SocketType.Pair);

        Assert.Throws<ArgumentOutOfRangeException>(() => socket.Send(1, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.Recv(1, -1));
    }

    [Fact]
    public void Null_message_text_throws_ArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => new Message((string)null!));
    }

    [Fact]
    public void Null_subscription_throws_ArgumentNullException()
    {
        using var socket = new Socket(Context, SocketType.Sub);

        Assert.Throws<ArgumentNullException>(() => socket.Subscribe((string)null!));
        Assert.Throws<ArgumentNullException>(() => socket.Unsubscribe((string)null!));
    }

    [Fact]
    public void Null_option_values_throw_ArgumentNullException()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Throws<ArgumentNullException>(() => socket.SetOption(SocketOption.RoutingId, (byte[])null!));
        Assert.Throws<ArgumentNullException>(() => socket.SetOption(SocketOption.ZapDomain, (string)null!));
    }

    [Fact]
    public void Null_or_empty_capability_throws()
    {
        Assert.Throws<ArgumentNullException>(() => Context.Has(null!));
        Assert.Throws<ArgumentException>(() => Context.Has(""));
    }

    [Fact]
    public void Null_context_throws_ArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => new Socket(null!, SocketType.Pair));
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(18)] // ZMQ_DGRAM: not offered (its messages are multipart)
    [InlineData(21)]
    [InlineData(99)]
    public void Unknown_socket_type_throws_ArgumentOutOfRangeException(int type)
    {

        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new Socket(Context, (SocketType)type));

        Assert.Equal("type", ex.ParamName);
    }
}
