namespace Net.Zmq.Tests.Proxies;

public sealed class ProxyTests : IDisposable
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(5);
    private readonly Context _context = new() { DefaultLinger = TimeSpan.Zero };

    public void Dispose() => _context.Dispose();

    [Fact]
    public async Task Router_dealer_proxy_forwards_requests_and_replies()
    {
        using var frontend = Bound(SocketType.Router, "tcp://127.0.0.1:*");
        using var backend = Bound(SocketType.Dealer, "tcp://127.0.0.1:*");
        using var client = Connected(SocketType.Req, frontend);
        using var worker = Connected(SocketType.Rep, backend);
        Task proxy = StartProxy(frontend, backend);

        client.Send("request");
        Assert.Equal("request", worker.RecvString());
        worker.Send("reply");
        Assert.Equal("reply", client.RecvString());

        _context.Shutdown();
        await proxy.WaitAsync(s_wait);
    }

    [Fact]
    public async Task Xsub_xpub_proxy_forwards_subscriptions_upstream_and_messages_downstream()
    {
        using var frontend = Bound(SocketType.XSub);
        using var backend = Bound(SocketType.XPub);
        using var publisher = Connected(SocketType.XPub, frontend);
        using var subscriber = Connected(SocketType.Sub, backend);
        Task proxy = StartProxy(frontend, backend);

        subscriber.Subscribe("news");
        Assert.Equal("\u0001news", publisher.RecvString());
        publisher.Send("weather: sunny");
        publisher.Send("news: proxy works");
        Assert.Equal("news: proxy works", subscriber.RecvString());

        _context.Shutdown();
        await proxy.WaitAsync(s_wait);
    }

    [Fact]
    public async Task Context_shutdown_ends_the_proxy_quietly()
    {
        using var frontend = Bound(SocketType.Pull);
        using var backend = Bound(SocketType.Push);
        using var producer = Connected(SocketType.Push, frontend);
        using var consumer = Connected(SocketType.Pull, backend);
        Task proxy = StartProxy(frontend, backend);
        producer.Send("proves the proxy runs");
        Assert.Equal("proves the proxy runs", consumer.RecvString());

        _context.Shutdown();

        await proxy.WaitAsync(s_wait);
        Assert.True(proxy.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Context_dispose_ends_the_proxy_quietly()
    {
        var context = new Context { DefaultLinger = TimeSpan.Zero };
        using var frontend = new Socket(context, SocketType.Pull);
        using var backend = new Socket(context, SocketType.Push);
        frontend.Bind($"inproc://{Guid.NewGuid()}");
        backend.Bind($"inproc://{Guid.NewGuid()}");
        Task proxy = StartProxy(frontend, backend);

        context.Dispose();

        await proxy.WaitAsync(s_wait);
        Assert.True(proxy.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Capture_socket_receives_a_copy_of_every_forwarded_frame()
    {
        using var frontend = Bound(SocketType.Pull);
        using var backend = Bound(SocketType.Push);
        using var capture = Bound(SocketType.Push);
        using var producer = Connected(SocketType.Push, frontend);
        using var consumer = Connected(SocketType.Pull, backend);
        using var tap = Connected(SocketType.Pull, capture);
        Task proxy = StartProxy(frontend, backend, capture);

        producer.Send("single");
        producer.SendMultipart(new[] { "head"u8.ToArray(), "tail"u8.ToArray() });

        Assert.Equal("single", consumer.RecvString());
        Assert.Equal("single", tap.RecvString());
        Assert.False(tap.HasMore);
        Assert.Equal("head", tap.RecvString());
        Assert.True(tap.HasMore);
        Assert.Equal("tail", tap.RecvString());
        Assert.False(tap.HasMore);

        _context.Shutdown();
        await proxy.WaitAsync(s_wait);
    }

    [Fact]
    public async Task Disposing_a_socket_while_the_proxy_runs_keeps_it_open_until_the_proxy_returns()
    {
        using var frontend = Bound(SocketType.Pull);
        var backend = Bound(SocketType.Push);
        using var producer = Connected(SocketType.Push, frontend);
        using var consumer = Connected(SocketType.Pull, backend);
        Task proxy = StartProxy(frontend, backend);
        producer.Send("before");
        Assert.Equal("before", consumer.RecvString());

        backend.Dispose();
        producer.Send("after");

        Assert.Equal("after", consumer.RecvString());
        _context.Shutdown();
        await proxy.WaitAsync(s_wait);
        Assert.True(proxy.IsCompletedSuccessfully);
        Assert.True(backend.IsDisposed);
    }

    [Fact]
    public void Null_frontend_or_backend_is_rejected()
    {
        using var socket = new Socket(_context, SocketType.Pull);

        Assert.Equal("frontend", Assert.Throws<ArgumentNullException>(() => Proxy.Start(null!, socket)).ParamName);
        Assert.Equal("backend", Assert.Throws<ArgumentNullException>(() => Proxy.Start(socket, null!)).ParamName);
    }

    [Fact]
    public void The_same_socket_as_frontend_and_backend_is_rejected()
    {
        using var socket = new Socket(_context, SocketType.Router);

        var error = Assert.Throws<ArgumentException>(() => Proxy.Start(socket, socket));

        Assert.Contains("different", error.Message);
    }

    [Fact]
    public void A_capture_socket_that_is_also_the_frontend_or_backend_is_rejected()
    {
        using var frontend = new Socket(_context, SocketType.Pull);
        using var backend = new Socket(_context, SocketType.Push);

        Assert.Throws<ArgumentException>(() => Proxy.Start(frontend, backend, frontend));
        Assert.Throws<ArgumentException>(() => Proxy.Start(frontend, backend, backend));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public async Task A_disposed_socket_is_rejected_before_the_proxy_starts(int disposedIndex)
    {
        Socket[] sockets =
        [
            new Socket(_context, SocketType.Pull),
            new Socket(_context, SocketType.Push),
            new Socket(_context, SocketType.Pub),
        ];
        sockets[disposedIndex].Dispose();

        Task proxy = Task.Run(() => Proxy.Start(sockets[0], sockets[1], sockets[2]));

        await Assert.ThrowsAsync<ObjectDisposedException>(() => proxy.WaitAsync(s_wait));
        foreach (Socket socket in sockets)
        {
            socket.Dispose();
        }
    }

    [Fact]
    public async Task A_capture_socket_that_cannot_send_stops_the_proxy_with_ZmqException()
    {
        using var frontend = Bound(SocketType.Pull);
        using var backend = Bound(SocketType.Push);
        using var capture = Bound(SocketType.Pull);
        using var producer = Connected(SocketType.Push, frontend);
        using var consumer = Connected(SocketType.Pull, backend);
        Task proxy = StartProxy(frontend, backend, capture);

        producer.Send("cannot be captured");

        var error = await Assert.ThrowsAsync<ZmqException>(() => proxy.WaitAsync(s_wait));
        Assert.Equal(ZmqError.ENOTSUP, error.ErrorNumber);
    }

    private static Task StartProxy(Socket frontend, Socket backend, Socket? capture = null) =>
        Task.Factory.StartNew(() => Proxy.Start(frontend, backend, capture), TaskCreationOptions.LongRunning);

    private Socket Bound(SocketType type, string? endpoint = null)
    {
        var socket = new Socket(_context, type);
        socket.Bind(endpoint ?? $"inproc://{Guid.NewGuid()}");
        return socket;
    }

    private Socket Connected(SocketType type, Socket peer)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.ReceiveTimeout, 5000);
        socket.SetOption(SocketOption.SendTimeout, 5000);
        socket.Connect(peer.LastEndpoint);
        return socket;
    }
}
