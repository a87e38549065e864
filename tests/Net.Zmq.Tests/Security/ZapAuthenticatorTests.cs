using System.Net;
using System.Net.Sockets;
using System.Text;
using Net.Zmq.Interop;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

public sealed class ZapAuthenticatorTests : ContextPerTest
{
    [Fact]
    public void An_allowed_PLAIN_user_talks_and_the_server_sees_its_User_Id()
    {
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        using var server = PlainServer();
        using var client = PlainClient(server.LastEndpoint, "admin", "secret");

        client.Send("hello");

        using var message = new Message();
        Assert.True(server.Recv(message));
        Assert.Equal("hello", message.ToString());
        Assert.Equal("admin", message.GetMetadata("User-Id"));
    }

    [Fact]
    public void A_wrong_password_gets_nothing_through_and_the_monitor_shows_the_failed_handshake()
    {
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        using var server = PlainServer();
        using var events = new SocketMonitor(server);
        using var client = PlainClient(server.LastEndpoint, "admin", "wrong");
        client.Send("must not arrive", SendFlags.DontWait);

        SocketMonitorEvent failed = events.WaitFor(SocketEvents.HandshakeFailedAuth | SocketEvents.HandshakeSucceeded, Timeouts.Wait);
        Assert.Equal(SocketEvents.HandshakeFailedAuth, failed.Event);
        Assert.Equal(400, failed.Value);
        AssertNothingArrives(server);
    }

    [Fact]
    public void A_denied_address_gets_nothing_through_while_an_allowed_one_talks()
    {
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.DenyAddress("127.0.0.2");
        using var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.ZapDomain, "test"); // NULL mechanism asks ZAP only with a domain
        server.Bind("tcp://127.0.0.1:*");
        int port = new Uri(server.LastEndpoint).Port;
        using var events = new SocketMonitor(server);

        using var denied = Client($"tcp://127.0.0.2:0;127.0.0.1:{port}", _ => { });
        denied.Send("from 127.0.0.2", SendFlags.DontWait);
        Assert.Equal(400, events.WaitFor(SocketEvents.HandshakeFailedAuth, Timeouts.Wait).Value);

        using var allowed = Client($"tcp://127.0.0.1:{port}", _ => { });
        allowed.Send("from 127.0.0.1");
        Assert.Equal("from 127.0.0.1", server.RecvString());
        AssertNothingArrives(server);
    }

    [Fact]
    public void An_allow_list_refuses_every_other_address()
    {
        using var auth = new ZapAuthenticator(Context);
        auth.ForDomain("inner").AllowAddress("127.0.0.3");
        using var server = new Socket(Context, SocketType.Pull);
        server.SetOption(SocketOption.ZapDomain, "inner");
        server.Bind("tcp://127.0.0.1:*");
        using var events = new SocketMonitor(server);

        using var client = Client(server.LastEndpoint, _ => { });

        Assert.Equal(400, events.WaitFor(SocketEvents.HandshakeFailedAuth, Timeouts.Wait).Value);
        AssertNothingArrives(server);
    }

    [Fact]
    public void An_allowed_CURVE_key_talks_and_becomes_the_User_Id()
    {
        var (serverPublic, serverSecret) = KeyPair();
        var (clientPublic, clientSecret) = KeyPair();
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AllowCurveKey(clientPublic);
        using var server = CurveServer(serverSecret);
        using var client = CurveClient(server.LastEndpoint, serverPublic, clientPublic, clientSecret);

        client.Send("encrypted hello");

        using var message = new Message();
        Assert.True(server.Recv(message));
        Assert.Equal("encrypted hello", message.ToString());
        Assert.Equal(clientPublic, message.GetMetadata("User-Id"));
    }

    [Fact]
    public void An_unknown_CURVE_key_gets_nothing_through()
    {
        var (serverPublic, serverSecret) = KeyPair();
        var (knownPublic, _) = KeyPair();
        var (strangerPublic, strangerSecret) = KeyPair();
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AllowCurveKey(knownPublic);
        using var server = CurveServer(serverSecret);
        using var events = new SocketMonitor(server);
        using var client = CurveClient(server.LastEndpoint, serverPublic, strangerPublic, strangerSecret);
        client.Send("must not arrive", SendFlags.DontWait);

        Assert.Equal(400, events.WaitFor(SocketEvents.HandshakeFailedAuth | SocketEvents.HandshakeSucceeded, Timeouts.Wait).Value);
        AssertNothingArrives(server);
    }

    [Fact]
    public void A_client_with_the_wrong_server_key_gets_nothing_through()
    {
        var (_, serverSecret) = KeyPair();
        var (otherPublic, _) = KeyPair();
        var (clientPublic, clientSecret) = KeyPair();
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AllowAnyCurveKey();
        using var server = CurveServer(serverSecret);
        using var events = new SocketMonitor(server);
        using var client = CurveClient(server.LastEndpoint, otherPublic, clientPublic, clientSecret);
        client.Send("must not arrive", SendFlags.DontWait);

        SocketMonitorEvent failed = events.WaitFor(
            SocketEvents.HandshakeFailedProtocol | SocketEvents.HandshakeFailedNoDetail | SocketEvents.HandshakeSucceeded, Timeouts.Wait);
        Assert.NotEqual(SocketEvents.HandshakeSucceeded, failed.Event);
        AssertNothingArrives(server);
    }

    [Fact]
    public void Under_CURVE_no_payload_byte_crosses_the_wire_in_clear()
    {
        byte[] payload = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("TOP-SECRET-PAYLOAD-", 8)));
        byte[] needle = payload.AsSpan(0, 19).ToArray();

        // The relay proves it sees the traffic: without CURVE the payload shows.
        byte[] clearWire = SendThroughRelay(payload, curve: false);
        Assert.True(clearWire.AsSpan().IndexOf(needle) >= 0, "the relay sees a clear payload");

        byte[] curveWire = SendThroughRelay(payload, curve: true);
        Assert.True(curveWire.Length > payload.Length, "the encrypted payload crossed the relay");
        Assert.True(curveWire.AsSpan().IndexOf(needle) < 0, "no clear payload under CURVE");
    }

    [Fact]
    public void Only_one_authenticator_can_serve_a_context()
    {
        using var auth = new ZapAuthenticator(Context);

        var ex = Assert.Throws<ZmqException>(() => new ZapAuthenticator(Context));
        Assert.Equal(ZmqError.EADDRINUSE, ex.ErrorNumber);
    }

    [Fact]
    public void A_malformed_request_gets_an_error_reply_and_the_authenticator_keeps_serving()
    {
        using var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        using (var rogue = new Socket(Context, SocketType.Req))
        {
            rogue.SetOption(SocketOption.ReceiveTimeout, 5000);
            rogue.Connect(ZapAuthenticator.Endpoint);
            rogue.SendMultipart(new[] { "garbage"u8.ToArray(), new byte[] { 1, 2, 3 } });
            using MultipartMessage reply = rogue.RecvMultipart();
            Assert.Equal("500", reply[2].ToString());
        }

        using var server = PlainServer();
        using var client = PlainClient(server.LastEndpoint, "admin", "secret");
        client.Send("still served");
        Assert.Equal("still served", server.RecvString());
    }

    [Fact]
    public void A_malformed_reply_from_a_ZAP_handler_fails_the_handshake_and_nothing_arrives()
    {
        using var handler = Sockets.New(Context, SocketType.Rep);
        handler.Bind(ZapAuthenticator.Endpoint);
        using var server = PlainServer();
        using var events = new SocketMonitor(server);
        using var client = PlainClient(server.LastEndpoint, "admin", "secret");
        client.Send("must not arrive", SendFlags.DontWait);

        using (MultipartMessage request = handler.RecvMultipart())
        {
            Assert.Equal("PLAIN", request[5].ToString());
        }

        handler.SendMultipart(new[] { "not a ZAP reply"u8.ToArray() });

        SocketMonitorEvent failed = events.WaitFor(SocketEvents.HandshakeFailedProtocol | SocketEvents.HandshakeSucceeded, Timeouts.Wait);
        Assert.Equal(SocketEvents.HandshakeFailedProtocol, failed.Event);
        Assert.Equal(0x20000001, failed.Value); // ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY
        AssertNothingArrives(server);
    }

    [Fact]
    public void Policies_reject_bad_input()
    {
        using var auth = new ZapAuthenticator(Context);

        Assert.Throws<ArgumentException>(() => auth.DefaultPolicy.AllowAddress("not an address"));
        Assert.Throws<ArgumentException>(() => auth.DefaultPolicy.AllowCurveKey("too short"));
        Assert.Throws<ArgumentException>(() => auth.DefaultPolicy.AllowCurveKey(new byte[31]));
        Assert.Throws<ArgumentException>(() => auth.DefaultPolicy.AddPlainUser("", "x"));
        Assert.Throws<ArgumentNullException>(() => auth.DefaultPolicy.AddPlainUser("user", null!));
        Assert.Throws<ArgumentException>(() => auth.ForDomain(""));
    }

    [Fact]
    public void Disposing_twice_is_harmless_and_a_new_authenticator_can_then_serve_the_context()
    {
        var auth = new ZapAuthenticator(Context);
        auth.Dispose();
        auth.Dispose();

        using var next = new ZapAuthenticator(Context);
        Assert.Equal(0, next.RequestCount);
    }

    [Fact]
    public async Task A_context_shutdown_stops_the_authenticator_quietly()
    {
        var auth = new ZapAuthenticator(Context);
        Context.Shutdown();

        await Task.Run(auth.Dispose).WaitAsync(Timeouts.Wait); // throws TimeoutException if the thread hangs
    }

    private byte[] SendThroughRelay(byte[] payload, bool curve)
    {
        using Context context = Sockets.NewContext();
        using var auth = new ZapAuthenticator(context);
        auth.DefaultPolicy.AllowAnyCurveKey();
        var (serverPublic, serverSecret) = KeyPair();
        var (clientPublic, clientSecret) = KeyPair();
        using var server = Sockets.New(context, SocketType.Pull);
        using var client = new Socket(context, SocketType.Push);
        if (curve)
        {
            server.SetOption(SocketOption.CurveServer, true);
            server.SetOption(SocketOption.CurveSecretKey, serverSecret);
            client.SetOption(SocketOption.CurveServerKey, serverPublic);
            client.SetOption(SocketOption.CurvePublicKey, clientPublic);
            client.SetOption(SocketOption.CurveSecretKey, clientSecret);
        }

        server.Bind("tcp://127.0.0.1:*");
        using var relay = new TcpRelay(new Uri(server.LastEndpoint).Port);
        client.Connect($"tcp://127.0.0.1:{relay.Port}");
        client.Send(payload);
        Assert.Equal(payload, server.RecvBytes());
        return relay.ClientToServerBytes();
    }

    private Socket PlainServer()
    {
        var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.PlainServer, true);
        server.Bind("tcp://127.0.0.1:*");
        return server;
    }

    private Socket CurveServer(string secretKey)
    {
        var server = Sockets.New(Context, SocketType.Pull);
        server.SetOption(SocketOption.CurveServer, true);
        server.SetOption(SocketOption.CurveSecretKey, secretKey);
        server.Bind("tcp://127.0.0.1:*");
        return server;
    }

    private Socket PlainClient(string endpoint, string user, string password) =>
        Client(endpoint, s =>
        {
            s.SetOption(SocketOption.PlainUsername, user);
            s.SetOption(SocketOption.PlainPassword, password);
        });

    private Socket CurveClient(string endpoint, string serverPublic, string clientPublic, string clientSecret) =>
        Client(endpoint, s =>
        {
            s.SetOption(SocketOption.CurveServerKey, serverPublic);
            s.SetOption(SocketOption.CurvePublicKey, clientPublic);
            s.SetOption(SocketOption.CurveSecretKey, clientSecret);
        });

    private Socket Client(string endpoint, Action<Socket> configure)
    {
        var client = new Socket(Context, SocketType.Push);
        client.SetOption(SocketOption.Linger, 0);
        configure(client);
        client.Connect(endpoint);
        return client;
    }

    private static void AssertNothingArrives(Socket server)
    {
        using var poller = new Poller(1);
        poller.Add(server, PollEvents.In);
        Assert.Equal(0, poller.Poll(200));
        Assert.False(server.TryRecvString(out _));
    }

    private static unsafe (string Public, string Secret) KeyPair()
    {
        byte* publicKey = stackalloc byte[41];
        byte* secretKey = stackalloc byte[41];
        Assert.Equal(0, LibZmq.CurveKeypair(publicKey, secretKey));
        return (new string((sbyte*)publicKey, 0, 40), new string((sbyte*)secretKey, 0, 40));
    }

    /// <summary>Forwards one TCP connection to the server and records what the client sent.</summary>
    private sealed class TcpRelay : IDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly MemoryStream _clientToServer = new();
        private readonly Task _relay;

        internal TcpRelay(int serverPort)
        {
            _listener.Start();
            Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
            _relay = Task.Run(async () =>
            {
                using TcpClient fromClient = await _listener.AcceptTcpClientAsync();
                using var toServer = new TcpClient();
                await toServer.ConnectAsync(IPAddress.Loopback, serverPort);
                Task up = Pump(fromClient.GetStream(), toServer.GetStream(), _clientToServer);
                Task down = Pump(toServer.GetStream(), fromClient.GetStream(), null);
                await Task.WhenAny(up, down);
            });
        }

        internal int Port { get; }

        internal byte[] ClientToServerBytes()
        {
            lock (_clientToServer)
            {
                return _clientToServer.ToArray();
            }
        }

        public void Dispose() => _listener.Stop();

        private static async Task Pump(NetworkStream from, NetworkStream to, MemoryStream? record)
        {
            var buffer = new byte[8192];
            try
            {
                int read;
                while ((read = await from.ReadAsync(buffer)) > 0)
                {
                    if (record is not null)
                    {
                        lock (record)
                        {
                            record.Write(buffer, 0, read);
                        }
                    }

                    await to.WriteAsync(buffer.AsMemory(0, read));
                }
            }
            catch (IOException)
            {
            }
            catch (ObjectDisposedException)
            {
            }
        }
    }
}
