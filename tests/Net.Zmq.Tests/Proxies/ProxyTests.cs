using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Proxies;

public sealed class ProxyTests : IDisposable
{
    private readonly Context _context = Sockets.NewContext();

    public void Dispose() => _context.Dispose();

    [Fact]
    public async Task Router_dealer_proxy_forwards_requests_and_replies()
    {
        using var frontend = ProxySockets.Bound(_context, SocketType.Router, Endpoints.EphemeralTcp);
        using var backend = ProxySockets.Bound(_context, SocketType.Dealer, Endpoints.EphemeralTcp);
        using var client = ProxySockets.Connected(_context, SocketType.Req, frontend);
        using var worker = ProxySockets.Connected(_context, SocketType.Rep, backend);
        Task proxy = StartProxy(frontend, backend);

        client.Send("request");
        Assert.Equal("request", worker.RecvString());
        worker.Send("reply");
        Assert.Equal("reply", client.RecvString());

        await EndsOnShutdownAsync(proxy);
    }

    [Fact]
    public async Task Xsub_xpub_proxy_forwards_subscriptions_upstream_and_messages_downstream()
    {
        using var frontend = ProxySockets.Bound(_context, SocketType.XSub);
        using var backend = ProxySockets.Bound(_context, SocketType.XPub);
        using var publisher = ProxySockets.Connected(_context, SocketType.XPub, frontend);
        using var subscriber = ProxySockets.Connected(_context, SocketType.Sub, backend);
        Task proxy = StartProxy(frontend, backend);

        subscriber.Subscribe("news");
        Assert.Equal("\u0001news", publisher.RecvString());
        publisher.Send("weather: sunny");
        publisher.Send("news: proxy works");
        Assert.Equal("news: proxy works", subscriber.RecvString());

        await EndsOnShutdownAsync(proxy);
    }

    [Fact]
    public async Task Context_shutdown_ends_the_proxy_quietly()
    {
        using var pipeline = new ProxyPipeline(_context);
        Task proxy = StartProxy(pipeline.Frontend, pipeline.Backend);
        pipeline.AssertForwards("proves the proxy runs");

        await EndsOnShutdownAsync(proxy);
    }

    [Fact]
    public async Task Context_dispose_ends_the_proxy_quietly()
    {
        var context = Sockets.NewContext();
        using var frontend = new Socket(context, SocketType.Pull);
        using var backend = new Socket(context, SocketType.Push);
        frontend.Bind(Endpoints.NewInproc());
        backend.Bind(Endpoints.NewInproc());
        Task proxy = StartProxy(frontend, backend);

        context.Dispose();

        await proxy.WaitAsync(Timeouts.Wait);
        Assert.True(proxy.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Capture_socket_receives_a_copy_of_every_forwarded_frame()
    {
        using var pipeline = new ProxyPipeline(_context);
        using var capture = ProxySockets.Bound(_context, SocketType.Push);
        using var tap = ProxySockets.Connected(_context, SocketType.Pull, capture);
        Task proxy = StartProxy(pipeline.Frontend, pipeline.Backend, capture);

        pipeline.AssertForwards("single");
        pipeline.Producer.SendMultipart(new[] { "head"u8.ToArray(), "tail"u8.ToArray() });

        Assert.Equal("single", tap.RecvString());
        Assert.False(tap.HasMore);
        Assert.Equal("head", tap.RecvString());
        Assert.True(tap.HasMore);
        Assert.Equal("tail", tap.RecvString());
        Assert.False(tap.HasMore);

        await EndsOnShutdownAsync(proxy);
    }

    [Fact]
    public async Task Disposing_a_socket_while_the_proxy_runs_keeps_it_open_until_the_proxy_returns()
    {
        using var pipeline = new ProxyPipeline(_context);
        Task proxy = StartProxy(pipeline.Frontend, pipeline.Backend);
        pipeline.AssertForwards("before");

        pipeline.Backend.Dispose();

        pipeline.AssertForwards("after");
        await EndsOnShutdownAsync(proxy);
        Assert.True(pipeline.Backend.IsDisposed);
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

        await Assert.ThrowsAsync<ObjectDisposedException>(() => proxy.WaitAsync(Timeouts.Wait));
        foreach (Socket socket in sockets)
        {
            socket.Dispose();
        }
    }

    [Fact]
    public async Task A_capture_socket_that_cannot_send_stops_the_proxy_with_ZmqException()
    {
        using var pipeline = new ProxyPipeline(_context);
        using var capture = ProxySockets.Bound(_context, SocketType.Pull);
        Task proxy = StartProxy(pipeline.Frontend, pipeline.Backend, capture);

        pipeline.Producer.Send("cannot be captured");

        var error = await Assert.ThrowsAsync<ZmqException>(() => proxy.WaitAsync(Timeouts.Wait));
        Assert.Equal(ZmqError.ENOTSUP, error.ErrorNumber);
    }

    /// <summary>Shuts the context down and asserts that the proxy returns, without an exception.</summary>
    private async Task EndsOnShutdownAsync(Task proxy)
    {
        _context.Shutdown();
        await proxy.WaitAsync(Timeouts.Wait);
        Assert.True(proxy.IsCompletedSuccessfully);
    }

    private static Task StartProxy(Socket frontend, Socket backend, Socket? capture = null) =>
        Task.Factory.StartNew(() => Proxy.Start(frontend, backend, capture), TaskCreationOptions.LongRunning);
}
