using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Proxies;

public sealed class ProxyControllerTests : IDisposable
{
    // The PAIR a proxy would read commands from, and the PAIR the controller under test writes them to.
    private readonly SocketPair _pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);

    private Socket ProxySide => _pair.Binder;

    private Socket ControllerSide => _pair.Connector;

    public void Dispose() => _pair.Dispose();

    [Fact]
    public void Commands_go_out_as_single_frames_with_exactly_the_words_libzmq_expects()
    {
        var controller = new ProxyController(ControllerSide);

        controller.Pause();
        controller.Resume();
        controller.Terminate();

        foreach (string expected in new[] { "PAUSE", "RESUME", "TERMINATE" })
        {
            Assert.Equal(expected, ProxySide.RecvString());
            Assert.False(ProxySide.HasMore);
        }
    }

    [Fact]
    public void Statistics_are_read_from_eight_frames_in_libzmq_order()
    {
        var controller = new ProxyController(ControllerSide);
        for (ulong value = 1; value <= 8; value++)
        {
            ProxySide.Send(BitConverter.GetBytes(value * 1000), value < 8 ? SendFlags.SendMore : SendFlags.None);
        }

        ProxyStatistics statistics = controller.GetStatistics();

        Assert.Equal("STATISTICS", ProxySide.RecvString());
        Assert.Equal(new ProxyStatistics(1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000), statistics);
        Assert.Equal(1000UL, statistics.FrontendMessagesReceived);
        Assert.Equal(4000UL, statistics.FrontendBytesSent);
        Assert.Equal(5000UL, statistics.BackendMessagesReceived);
        Assert.Equal(8000UL, statistics.BackendBytesSent);
    }

    [Theory]
    [InlineData(7, 8)]
    [InlineData(9, 8)]
    [InlineData(8, 4)]
    public void A_reply_that_is_not_eight_frames_of_eight_bytes_throws_InvalidOperationException(int frames, int size)
    {
        var controller = new ProxyController(ControllerSide);
        for (int i = 0; i < frames; i++)
        {
            ProxySide.Send(new byte[size], i < frames - 1 ? SendFlags.SendMore : SendFlags.None);
        }

        var error = Assert.Throws<InvalidOperationException>(() => controller.GetStatistics());

        Assert.Contains("STATISTICS", error.Message);
        Assert.Equal(-1, ControllerSide.Recv(new byte[8], RecvFlags.DontWait));
    }

    [Fact]
    public void Statistics_without_a_proxy_time_out_with_EAGAIN()
    {
        ControllerSide.SetOption(SocketOption.ReceiveTimeout, 100);
        var controller = new ProxyController(ControllerSide);

        var error = Assert.Throws<ZmqException>(() => controller.GetStatistics());

        Assert.Equal(ZmqError.EAGAIN, error.ErrorNumber);
    }

    [Fact]
    public void A_controller_needs_a_pair_socket()
    {
        using var req = new Socket(_pair.Context, SocketType.Req);

        Assert.Throws<ArgumentNullException>(() => new ProxyController(null!));
        var error = Assert.Throws<ArgumentException>(() => new ProxyController(req));
        Assert.Contains("PAIR", error.Message);
        Assert.Same(ControllerSide, new ProxyController(ControllerSide).Socket);
    }
}
