using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Proxies;

public sealed class SteerableProxyTests : IDisposable
{
    private readonly Context _context = Sockets.NewContext();
    private readonly ProxyPipeline _pipeline;
    private readonly Socket _control;
    private readonly Socket _steering;
    private readonly ProxyController _controller;

    public SteerableProxyTests()
    {
        _pipeline = new ProxyPipeline(_context);
        _control = ProxySockets.Bound(_context, SocketType.Pair);
        _steering = ProxySockets.Connected(_context, SocketType.Pair, _control);
        _controller = new ProxyController(_steering);
    }

    private Socket Frontend => _pipeline.Frontend;

    private Socket Backend => _pipeline.Backend;

    public void Dispose()
    {
        _steering.Dispose();
        _control.Dispose();
        _pipeline.Dispose();
        _context.Dispose();
    }

    [Fact]
    public async Task Terminate_ends_the_proxy_quietly_and_hands_the_sockets_back()
    {
        Task proxy = StartProxy();

        _controller.Terminate();

        await proxy.WaitAsync(Timeouts.Wait);
        Assert.True(proxy.IsCompletedSuccessfully);
        _pipeline.Producer.Send("read by the test, not by the proxy");
        Frontend.WithTimeouts();
        Assert.Equal("read by the test, not by the proxy", Frontend.RecvString());
    }

    [Fact]
    public async Task Context_shutdown_ends_the_steerable_proxy_quietly()
    {
        Task proxy = StartProxy();
        _pipeline.AssertForwards("proves the proxy runs");

        _context.Shutdown();

        await proxy.WaitAsync(Timeouts.Wait);
        Assert.True(proxy.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Pause_holds_messages_back_until_resume()
    {
        using var poller = new Poller();
        int consumerIndex = poller.Add(_pipeline.Consumer, PollEvents.In);
        Task proxy = StartProxy();
        _pipeline.AssertForwards("before the pause");

        _controller.Pause();
        _controller.GetStatistics(); // answered after PAUSE, so the proxy is paused now
        _pipeline.Producer.Send("sent while paused");

        Assert.Equal(0, poller.Poll(200));
        Assert.False(poller.IsReadable(consumerIndex));
        _controller.Resume();
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.Equal("sent while paused", _pipeline.Consumer.RecvString());

        _controller.Terminate();
        await proxy.WaitAsync(Timeouts.Wait);
    }

    [Fact]
    public async Task Statistics_count_the_messages_and_bytes_forwarded_each_way()
    {
        using var frontend = ProxySockets.Bound(_context, SocketType.Router);
        using var backend = ProxySockets.Bound(_context, SocketType.Dealer);
        using var client = Sockets.New(_context, SocketType.Req);
        client.SetOption(SocketOption.RoutingId, "client"u8);
        client.Connect(frontend.LastEndpoint);
        using var worker = ProxySockets.Connected(_context, SocketType.Rep, backend);
        Task proxy = StartProxy(frontend, backend);
        const int Rounds = 3;
        for (int i = 0; i < Rounds; i++)
        {
            client.Send("ping!");
            Assert.Equal("ping!", worker.RecvString());
            worker.Send("pong");
            Assert.Equal("pong", client.RecvString());
        }

        ProxyStatistics statistics = _controller.GetStatistics();

        // Each request crosses as [routing id "client", empty delimiter, "ping!"]: 6 + 0 + 5 bytes; each reply as 6 + 0 + 4.
        // libzmq 4.3.x counts a multipart message once; later versions count each of its 3 frames.
        ulong perMessage = Context.Version < new Version(4, 3, 6) ? 1UL : 3UL;
        Assert.Equal(new ProxyStatistics(
            FrontendMessagesReceived: Rounds * perMessage,
            FrontendBytesReceived: Rounds * 11,
            FrontendMessagesSent: Rounds * perMessage,
            FrontendBytesSent: Rounds * 10,
            BackendMessagesReceived: Rounds * perMessage,
            BackendBytesReceived: Rounds * 10,
            BackendMessagesSent: Rounds * perMessage,
            BackendBytesSent: Rounds * 11), statistics);

        _controller.Terminate();
        await proxy.WaitAsync(Timeouts.Wait);
    }

    [Fact]
    public async Task Statistics_of_a_new_proxy_are_all_zero()
    {
        Task proxy = StartProxy();

        Assert.Equal(default, _controller.GetStatistics());

        _controller.Terminate();
        await proxy.WaitAsync(Timeouts.Wait);
    }

    [Fact]
    public async Task Capture_socket_of_a_steerable_proxy_receives_the_forwarded_messages_and_in_libzmq_4_3_the_commands()
    {
        using var capture = ProxySockets.Bound(_context, SocketType.Push);
        using var tap = ProxySockets.Connected(_context, SocketType.Pull, capture);
        Task proxy = StartProxy(Frontend, Backend, capture);

        _pipeline.AssertForwards("copied");
        _controller.Terminate();
        await proxy.WaitAsync(Timeouts.Wait);

        Assert.Equal("copied", tap.RecvString());
        if (Context.Version < new Version(4, 3, 6))
        {
            // libzmq 4.3.x also copies each control command to the capture socket; later versions do not.
            Assert.Equal("TERMINATE", tap.RecvString());
        }

        Assert.False(tap.TryRecvString(out _));
    }

    [Fact]
    public void Null_sockets_are_rejected()
    {
        Assert.Equal("frontend", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(null!, Backend, null, _control)).ParamName);
        Assert.Equal("backend", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(Frontend, null!, null, _control)).ParamName);
        Assert.Equal("control", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(Frontend, Backend, null, null!)).ParamName);
    }

    [Fact]
    public void A_control_socket_shared_with_another_role_is_rejected()
    {
        using var capture = ProxySockets.Bound(_context, SocketType.Pair);

        Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(Frontend, Frontend, null, _control));
        Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(Frontend, Backend, Frontend, _control));
        Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(Frontend, Backend, capture, capture));
    }

    [Theory]
    [InlineData(SocketType.Pub)]
    [InlineData(SocketType.Push)]
    [InlineData(SocketType.Req)]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.XPub)]
    public void A_control_socket_that_cannot_receive_single_frame_commands_is_rejected(SocketType type)
    {
        using var control = new Socket(_context, type);

        var error = Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(Frontend, Backend, null, control));

        Assert.Equal("control", error.ParamName);
    }

    [Fact]
    public async Task A_disposed_control_socket_is_rejected_before_the_proxy_starts()
    {
        _control.Dispose();

        Task proxy = Task.Run(() => Proxy.StartSteerable(Frontend, Backend, null, _control));

        await Assert.ThrowsAsync<ObjectDisposedException>(() => proxy.WaitAsync(Timeouts.Wait));
    }

    private Task StartProxy() => StartProxy(Frontend, Backend);

    private Task StartProxy(Socket frontend, Socket backend, Socket? capture = null) =>
        Task.Factory.StartNew(() => Proxy.StartSteerable(frontend, backend, capture, _control), TaskCreationOptions.LongRunning);
}
