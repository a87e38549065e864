using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Proxies;

public sealed class SteerableProxyTests : IDisposable
{
    private readonly Context _context = Sockets.NewContext();
    private readonly Socket _frontend;
    private readonly Socket _backend;
    private readonly Socket _control;
    private readonly Socket _steering;
    private readonly ProxyController _controller;

    public SteerableProxyTests()
    {
        _frontend = ProxySockets.Bound(_context, SocketType.Pull);
        _backend = ProxySockets.Bound(_context, SocketType.Push);
        _control = ProxySockets.Bound(_context, SocketType.Pair);
        _steering = ProxySockets.Connected(_context, SocketType.Pair, _control);
        _controller = new ProxyController(_steering);
    }

    public void Dispose()
    {
        _steering.Dispose();
        _control.Dispose();
        _backend.Dispose();
        _frontend.Dispose();
        _context.Dispose();
    }

    [Fact]
    public async Task Terminate_ends_the_proxy_quietly_and_hands_the_sockets_back()
    {
        using var producer = ProxySockets.Connected(_context, SocketType.Push, _frontend);
        Task proxy = StartProxy();

        _controller.Terminate();

        await proxy.WaitAsync(Timeouts.Wait);
        Assert.True(proxy.IsCompletedSuccessfully);
        producer.Send("read by the test, not by the proxy");
        _frontend.WithTimeouts();
        Assert.Equal("read by the test, not by the proxy", _frontend.RecvString());
    }

    [Fact]
    public async Task Context_shutdown_ends_the_steerable_proxy_quietly()
    {
        using var producer = ProxySockets.Connected(_context, SocketType.Push, _frontend);
        using var consumer = ProxySockets.Connected(_context, SocketType.Pull, _backend);
        Task proxy = StartProxy();
        producer.Send("proves the proxy runs");
        Assert.Equal("proves the proxy runs", consumer.RecvString());

        _context.Shutdown();

        await proxy.WaitAsync(Timeouts.Wait);
        Assert.True(proxy.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Pause_holds_messages_back_until_resume()
    {
        using var producer = ProxySockets.Connected(_context, SocketType.Push, _frontend);
        using var consumer = ProxySockets.Connected(_context, SocketType.Pull, _backend);
        using var poller = new Poller();
        int consumerIndex = poller.Add(consumer, PollEvents.In);
        Task proxy = StartProxy();
        producer.Send("before the pause");
        Assert.Equal("before the pause", consumer.RecvString());

        _controller.Pause();
        _controller.GetStatistics(); // answered after PAUSE, so the proxy is paused now
        producer.Send("sent while paused");

        Assert.Equal(0, poller.Poll(200));
        Assert.False(poller.IsReadable(consumerIndex));
        _controller.Resume();
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.Equal("sent while paused", consumer.RecvString());

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
        using var producer = ProxySockets.Connected(_context, SocketType.Push, _frontend);
        using var consumer = ProxySockets.Connected(_context, SocketType.Pull, _backend);
        Task proxy = StartProxy(_frontend, _backend, capture);

        producer.Send("copied");
        Assert.Equal("copied", consumer.RecvString());
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
        Assert.Equal("frontend", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(null!, _backend, null, _control)).ParamName);
        Assert.Equal("backend", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(_frontend, null!, null, _control)).ParamName);
        Assert.Equal("control", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(_frontend, _backend, null, null!)).ParamName);
    }

    [Fact]
    public void A_control_socket_shared_with_another_role_is_rejected()
    {
        using var capture = ProxySockets.Bound(_context, SocketType.Pair);

        Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(_frontend, _frontend, null, _control));
        Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(_frontend, _backend, _frontend, _control));
        Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(_frontend, _backend, capture, capture));
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

        var error = Assert.Throws<ArgumentException>(() => Proxy.StartSteerable(_frontend, _backend, null, control));

        Assert.Equal("control", error.ParamName);
    }

    [Fact]
    public async Task A_disposed_control_socket_is_rejected_before_the_proxy_starts()
    {
        _control.Dispose();

        Task proxy = Task.Run(() => Proxy.StartSteerable(_frontend, _backend, null, _control));

        await Assert.ThrowsAsync<ObjectDisposedException>(() => proxy.WaitAsync(Timeouts.Wait));
    }

    private Task StartProxy() => StartProxy(_frontend, _backend);

    private Task StartProxy(Socket frontend, Socket backend, Socket? capture = null) =>
        Task.Factory.StartNew(() => Proxy.StartSteerable(frontend, backend, capture, _control), TaskCreationOptions.LongRunning);
}
