using System.Net.Sockets;
using Net.Zmq.Monitoring;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Monitoring;

public sealed class SocketMonitorTests : ContextPerTest
{
    [Fact]
    public void Bind_connect_and_handshake_are_reported_on_both_sides()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var client = new Socket(Context, SocketType.Dealer);
        using var serverEvents = new SocketMonitor(server);
        using var clientEvents = new SocketMonitor(client);

        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.LastEndpoint;
        SocketMonitorEvent listening = serverEvents.WaitFor(SocketEvents.Listening, Timeouts.Wait);
        Assert.Equal(endpoint, listening.Endpoint);
        Assert.True(listening.Value > 0, "Listening carries the listener's file descriptor");

        client.Connect(endpoint);
        Assert.Equal(endpoint, clientEvents.WaitFor(SocketEvents.Connected, Timeouts.Wait).Endpoint);
        Assert.Equal(SocketEvents.HandshakeSucceeded, clientEvents.WaitFor(SocketEvents.HandshakeSucceeded, Timeouts.Wait).Event);
        Assert.True(serverEvents.WaitFor(SocketEvents.Accepted, Timeouts.Wait).Value > 0);
        Assert.Equal(SocketEvents.HandshakeSucceeded, serverEvents.WaitFor(SocketEvents.HandshakeSucceeded, Timeouts.Wait).Event);
    }

    [Fact]
    public void A_peer_going_away_is_reported_as_Disconnected()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var serverEvents = new SocketMonitor(server);
        server.Bind("tcp://127.0.0.1:*");
        var client = new Socket(Context, SocketType.Dealer);
        client.Connect(server.LastEndpoint);
        serverEvents.WaitFor(SocketEvents.HandshakeSucceeded, Timeouts.Wait);

        client.Dispose();

        SocketMonitorEvent disconnected = serverEvents.WaitFor(SocketEvents.Disconnected, Timeouts.Wait);
        Assert.StartsWith("tcp://127.0.0.1:", disconnected.Endpoint);
    }

    [Fact]
    public void Connecting_to_nobody_is_reported_as_retried()
    {
        string unused = Endpoints.UnusedTcp();
        using var client = new Socket(Context, SocketType.Dealer);
        client.SetOption(SocketOption.ReconnectInterval, 10);
        using var clientEvents = new SocketMonitor(client, SocketEvents.ConnectRetried | SocketEvents.ConnectDelayed);
        client.Connect(unused);

        SocketMonitorEvent retried = clientEvents.WaitFor(SocketEvents.ConnectRetried, Timeouts.Wait);
        Assert.Equal(unused, retried.Endpoint);
        Assert.True(retried.Value >= 10, "ConnectRetried carries the reconnect interval");
    }

    [Fact]
    public void A_connect_in_progress_is_reported_as_ConnectDelayed_and_its_failure_as_Closed()
    {
        string unused = Endpoints.UnusedTcp();
        using var client = new Socket(Context, SocketType.Dealer);
        using var clientEvents = new SocketMonitor(client, SocketEvents.ConnectDelayed | SocketEvents.Closed);
        client.Connect(unused);

        SocketMonitorEvent delayed = clientEvents.WaitFor(SocketEvents.ConnectDelayed, Timeouts.Wait);
        Assert.Equal(unused, delayed.Endpoint);
        Assert.True(delayed.Value > 0, "ConnectDelayed carries the connect's errno (EINPROGRESS)");
        Assert.Equal(unused, clientEvents.WaitFor(SocketEvents.Closed, Timeouts.Wait).Endpoint);
    }

    [Fact]
    public void A_peer_that_hangs_up_inside_the_greeting_is_reported_as_HandshakeFailedNoDetail()
    {
        using var server = new Socket(Context, SocketType.Pull);
        using var serverEvents = new SocketMonitor(server);
        server.Bind("tcp://127.0.0.1:*");
        var uri = new Uri(server.LastEndpoint);

        using (var raw = new TcpClient())
        {
            raw.Connect("127.0.0.1", uri.Port);
            raw.GetStream().Write([0xFF, 0, 0, 0, 0, 0, 0, 0, 1, 0x7F]); // the first ten bytes of a ZMTP greeting, then nothing
            raw.Client.Shutdown(SocketShutdown.Both);
        }

        SocketMonitorEvent failed = serverEvents.WaitFor(SocketEvents.HandshakeFailedNoDetail, Timeouts.Wait);
        Assert.Equal(server.LastEndpoint, failed.Endpoint);
        Assert.Equal(server.LastEndpoint, serverEvents.WaitFor(SocketEvents.Disconnected, Timeouts.Wait).Endpoint);
    }

    [Fact]
    public void Binding_an_address_in_use_is_reported_as_BindFailed()
    {
        using var first = new Socket(Context, SocketType.Router);
        first.Bind("tcp://127.0.0.1:*");
        using var second = new Socket(Context, SocketType.Router);
        using var events = new SocketMonitor(second);

        var ex = Assert.Throws<ZmqException>(() => second.Bind(first.LastEndpoint));
        Assert.Equal(ZmqError.EADDRINUSE, ex.ErrorNumber);

        SocketMonitorEvent failed = events.WaitFor(SocketEvents.BindFailed, Timeouts.Wait);
        Assert.Equal(ZmqError.EADDRINUSE, failed.Value);
    }

    [Fact]
    public void Unbinding_closes_the_listener()
    {
        using var server = new Socket(Context, SocketType.Router);
        using var events = new SocketMonitor(server);
        server.Bind("tcp://127.0.0.1:*");
        int listener = events.WaitFor(SocketEvents.Listening, Timeouts.Wait).Value;

        server.Unbind(server.LastEndpoint);

        Assert.Equal(listener, events.WaitFor(SocketEvents.Closed, Timeouts.Wait).Value);
    }

    [Fact]
    public void A_security_mechanism_mismatch_is_reported_as_a_failed_handshake()
    {
        using var server = new Socket(Context, SocketType.Router);
        server.SetOption(SocketOption.PlainServer, true);
        using var serverEvents = new SocketMonitor(server);
        server.Bind("tcp://127.0.0.1:*");
        using var client = new Socket(Context, SocketType.Dealer); // NULL mechanism
        client.Connect(server.LastEndpoint);

        SocketMonitorEvent failed = serverEvents.WaitFor(
            SocketEvents.HandshakeFailedProtocol | SocketEvents.HandshakeFailedNoDetail | SocketEvents.HandshakeSucceeded, Timeouts.Wait);
        Assert.Equal(SocketEvents.HandshakeFailedProtocol, failed.Event);
        Assert.Equal(0x11000002, failed.Value); // ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH
    }

    [Fact]
    public void Garbage_instead_of_a_greeting_fails_the_handshake_and_the_server_keeps_serving()
    {
        using var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.HandshakeInterval, 200); // a peer that never completes the greeting is dropped
        using var serverEvents = new SocketMonitor(server);
        server.Bind("tcp://127.0.0.1:*");
        var uri = new Uri(server.LastEndpoint);

        using (var raw = new TcpClient())
        {
            raw.Connect("127.0.0.1", uri.Port);
            raw.GetStream().Write(new byte[64].Select((_, i) => (byte)(0xA5 ^ i)).ToArray());
            SocketMonitorEvent failed = serverEvents.WaitFor(
                SocketEvents.HandshakeFailedProtocol | SocketEvents.HandshakeFailedNoDetail | SocketEvents.Disconnected, Timeouts.Wait);
            Assert.NotEqual(SocketEvents.HandshakeSucceeded, failed.Event);
        }

        using var good = new Socket(Context, SocketType.Push);
        good.Connect(server.LastEndpoint);
        good.Send("still serving");
        Assert.Equal("still serving", server.RecvString());
    }

    [Fact]
    public void Stopping_reports_MonitorStopped()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        using var events = new SocketMonitor(socket);

        socket.StopMonitor();

        Assert.Equal(SocketEvents.MonitorStopped, events.WaitFor(SocketEvents.MonitorStopped, Timeouts.Wait).Event);
    }

    [Fact]
    public void TryRecv_returns_false_when_nothing_happens()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        using var events = new SocketMonitor(socket);

        Assert.False(events.TryRecv(out _, TimeSpan.FromMilliseconds(20)));
    }

    [Fact]
    public void Monitoring_a_disposed_socket_throws_ObjectDisposedException()
    {
        var socket = new Socket(Context, SocketType.Dealer);
        socket.Dispose();

        Assert.Throws<ObjectDisposedException>(() => new SocketMonitor(socket));
        Assert.Throws<ObjectDisposedException>(() => socket.Monitor("inproc://nowhere"));
    }

    [Fact]
    public void Monitor_endpoint_must_be_inproc()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ZmqException>(() => socket.Monitor("tcp://127.0.0.1:5"));
        Assert.Equal(ZmqError.EPROTONOSUPPORT, ex.ErrorNumber);
        Assert.Throws<ArgumentException>(() => socket.Monitor(""));
    }

    [Fact]
    public void Disposing_the_monitor_after_its_socket_is_harmless()
    {
        var socket = new Socket(Context, SocketType.Dealer);
        var events = new SocketMonitor(socket);
        socket.Dispose();

        events.Dispose();
        events.Dispose();
        Assert.Throws<ObjectDisposedException>(() => events.TryRecv(out _, TimeSpan.Zero));
    }
}
