using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Errors;

public class EndpointErrorTests : ContextPerTest
{
    public static TheoryData<string> MalformedEndpoints => new("tcp://127.0.0.1", "garbage", "tcp://127.0.0.1:abc", "tcp://", "inproc://", "ipc://");

    [Theory]
    [MemberData(nameof(MalformedEndpoints))]
    public void Bind_to_a_malformed_endpoint_throws_EINVAL(string endpoint)
    {
        using var socket = new Socket(Context, SocketType.Pull);

        var ex = Assert.Throws<ZmqException>(() => socket.Bind(endpoint));

        Assert.Equal(ZmqError.EINVAL, ex.ErrorNumber);
        Assert.Contains(endpoint, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(MalformedEndpoints))]
    public void Connect_to_a_malformed_endpoint_throws_EINVAL(string endpoint)
    {
        using var socket = new Socket(Context, SocketType.Push);

        var ex = Assert.Throws<ZmqException>(() => socket.Connect(endpoint));

        Assert.Equal(ZmqError.EINVAL, ex.ErrorNumber);
    }

    [Theory]
    [InlineData("foo://x")]
    [InlineData("http://127.0.0.1:80")]
    public void Unknown_transport_throws_EPROTONOSUPPORT(string endpoint)
    {
        using var socket = new Socket(Context, SocketType.Pull);

        var bind = Assert.Throws<ZmqException>(() => socket.Bind(endpoint));
        var connect = Assert.Throws<ZmqException>(() => socket.Connect(endpoint));

        Assert.Equal(ZmqError.EPROTONOSUPPORT, bind.ErrorNumber);
        Assert.Equal(ZmqError.EPROTONOSUPPORT, connect.ErrorNumber);
    }

    [Fact]
    public void Transport_the_socket_type_cannot_use_throws_ENOCOMPATPROTO()
    {
        using var socket = new Socket(Context, SocketType.Pub);

        var ex = Assert.Throws<ZmqException>(() => socket.Bind("udp://127.0.0.1:5555"));

        Assert.Equal(ZmqError.ENOCOMPATPROTO, ex.ErrorNumber);
    }

    [Fact]
    public void Binding_an_address_that_is_not_local_throws_ENODEV()
    {
        using var socket = new Socket(Context, SocketType.Pull);

        var ex = Assert.Throws<ZmqException>(() => socket.Bind("tcp://256.1.1.1:5555"));

        Assert.Equal(ZmqError.ENODEV, ex.ErrorNumber);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Binding_an_endpoint_another_socket_holds_throws_EADDRINUSE(bool inproc)
    {
        using var first = new Socket(Context, SocketType.Pull);
        using var second = new Socket(Context, SocketType.Pull);
        string endpoint = inproc ? Endpoints.BindInproc(first) : Endpoints.BindTcp(first);

        var ex = Assert.Throws<ZmqException>(() => second.Bind(endpoint));

        Assert.Equal(ZmqError.EADDRINUSE, ex.ErrorNumber);
    }

    [Fact]
    public void Unbind_of_an_endpoint_never_bound_throws_ENOENT()
    {
        using var socket = new Socket(Context, SocketType.Pull);

        var tcp = Assert.Throws<ZmqException>(() => socket.Unbind("tcp://127.0.0.1:5999"));
        var inproc = Assert.Throws<ZmqException>(() => socket.Unbind(Endpoints.NewInproc()));

        Assert.Equal(ZmqError.ENOENT, tcp.ErrorNumber);
        Assert.Equal(ZmqError.ENOENT, inproc.ErrorNumber);
    }

    [Fact]
    public void Disconnect_of_an_endpoint_never_connected_throws_ENOENT()
    {
        using var socket = new Socket(Context, SocketType.Push);

        var ex = Assert.Throws<ZmqException>(() => socket.Disconnect("tcp://127.0.0.1:5999"));

        Assert.Equal(ZmqError.ENOENT, ex.ErrorNumber);
    }

    [Fact]
    public void Unbind_frees_an_inproc_name_for_another_socket()
    {
        using var first = new Socket(Context, SocketType.Pull);
        using var second = new Socket(Context, SocketType.Pull);
        string endpoint = Endpoints.BindInproc(first);

        first.Unbind(endpoint);
        second.Bind(endpoint);

        Assert.Equal(endpoint, second.LastEndpoint);
    }

    [Fact]
    public void Unbinding_a_tcp_endpoint_twice_throws_ENOENT_the_second_time()
    {
        using var socket = new Socket(Context, SocketType.Pull);
        string endpoint = Endpoints.BindTcp(socket);

        socket.Unbind(endpoint);
        var ex = Assert.Throws<ZmqException>(() => socket.Unbind(endpoint));

        Assert.Equal(ZmqError.ENOENT, ex.ErrorNumber);
    }
}
