using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

public sealed class CurveSocketTests : ContextPerTest
{
    private readonly CurveKeyPair _serverKeys = Curve.GenerateKeyPair();
    private readonly CurveKeyPair _clientKeys = Curve.GenerateKeyPair();

    [Fact]
    public void Curve_client_and_server_exchange_messages_both_ways()
    {
        using var server = Sockets.New(Context, SocketType.Rep);
        using var client = Sockets.New(Context, SocketType.Req);
        server.MakeCurveServer(_serverKeys.SecretKey);
        client.MakeCurveClient(_clientKeys, _serverKeys.PublicKey);
        client.Connect(Endpoints.BindTcp(server));

        client.Send("hello over curve");
        Assert.Equal("hello over curve", server.RecvString());
        server.Send("welcome");
        Assert.Equal("welcome", client.RecvString());
    }

    /// <summary>
    /// libzmq sets up each endpoint's security as it is bound or connected: a security option set later would not reach
    /// it (a CURVE server bound first took plaintext peers), so it is refused, and nothing is set.
    /// </summary>
    [Fact]
    public void Security_options_after_a_bind_or_connect_are_refused()
    {
        using var server = Sockets.New(Context, SocketType.Pull);
        using var client = Sockets.New(Context, SocketType.Push);
        string endpoint = Endpoints.BindTcp(server);

        var late = Assert.Throws<InvalidOperationException>(() => server.MakeCurveServer(_serverKeys));
        Assert.Contains("CurveServer set after this Pull socket was bound or connected", late.Message);
        Assert.Contains("set security options before Bind and Connect", late.Message);
        Assert.Equal((int)SecurityMechanism.Null, server.GetOption<int>(SocketOption.Mechanism));
        Assert.Throws<InvalidOperationException>(() => server.SetOption(SocketOption.ZapDomain, "global"));
        Assert.Throws<InvalidOperationException>(() => server.MakePlainServer());

        client.Connect(endpoint);
        Assert.Throws<InvalidOperationException>(() => client.MakeCurveClient(_clientKeys, _serverKeys.PublicKey));
        Assert.Throws<InvalidOperationException>(() => client.MakePlainClient("user", "password"));
        client.SetOption(SocketOption.SendHighWatermark, 5); // other options are still taken
    }

    /// <summary>
    /// A Stream socket, and a Router in raw mode, carry raw bytes without ZeroMQ's handshake: libzmq runs no security
    /// mechanism and asks no ZAP handler on them, so a CURVE server or a ZAP domain there would admit every peer. Such
    /// options are refused (either order for the Router), and nothing is set.
    /// </summary>
    [Fact]
    public void Security_options_on_sockets_without_a_handshake_are_refused()
    {
        using var stream = Sockets.New(Context, SocketType.Stream);
        var refused = Assert.Throws<InvalidOperationException>(() => stream.MakeCurveServer(_serverKeys));
        Assert.Contains("CurveServer on a Stream socket would not secure it", refused.Message);
        Assert.Throws<InvalidOperationException>(() => stream.MakePlainServer());
        Assert.Throws<InvalidOperationException>(() => stream.SetOption(SocketOption.ZapDomain, "global"));
        Assert.Equal((int)SecurityMechanism.Null, stream.GetOption<int>(SocketOption.Mechanism));

        using var rawLater = Sockets.New(Context, SocketType.Router);
        rawLater.MakeCurveServer(_serverKeys);
        Assert.Throws<InvalidOperationException>(() => rawLater.SetOption(SocketOption.RouterRaw, true));

        using var rawFirst = Sockets.New(Context, SocketType.Router);
        rawFirst.SetOption(SocketOption.RouterRaw, true);
        Assert.Throws<InvalidOperationException>(() => rawFirst.MakeCurveServer(_serverKeys));
        Assert.Throws<InvalidOperationException>(() => rawFirst.SetOption(SocketOption.ZapDomain, "global"));
        Assert.Equal((int)SecurityMechanism.Null, rawFirst.GetOption<int>(SocketOption.Mechanism));
    }

    /// <summary>libzmq decodes Z85 key text only up to a NUL, keeping the rest of the previous key: the text is decoded here instead.</summary>
    [Fact]
    public void A_curve_key_text_with_a_nul_is_refused_and_changes_nothing()
    {
        using var client = new Socket(Context, SocketType.Dealer);
        client.SetOption(SocketOption.CurveServerKey, _serverKeys.PublicKey);
        string cut = string.Concat(_clientKeys.PublicKey.AsSpan(0, 35), "\0\0\0\0\0");

        Assert.Throws<ArgumentException>(() => client.SetOption(SocketOption.CurveServerKey, cut));
        Assert.Throws<ArgumentException>(() => client.SetOption(SocketOption.CurveServerKey, System.Text.Encoding.Latin1.GetBytes(cut)));
        Assert.Equal(_serverKeys.PublicKey, client.GetOption<string>(SocketOption.CurveServerKey));
        client.SetOption(SocketOption.CurveServerKey, System.Text.Encoding.ASCII.GetBytes(_clientKeys.PublicKey)); // text as bytes
        Assert.Equal(_clientKeys.PublicKey, client.GetOption<string>(SocketOption.CurveServerKey));
    }

    [Fact]
    public void Make_curve_server_sets_the_server_flag_and_both_keys()
    {
        using var server = new Socket(Context, SocketType.Router);

        server.MakeCurveServer(_serverKeys);

        Assert.Equal((int)SecurityMechanism.Curve, server.GetOption<int>(SocketOption.Mechanism));
        Assert.True(server.GetOption<bool>(SocketOption.CurveServer));
        Assert.Equal(_serverKeys.SecretKey, server.GetOption<string>(SocketOption.CurveSecretKey));
        Assert.Equal(_serverKeys.PublicKey, server.GetOption<string>(SocketOption.CurvePublicKey));
    }

    [Fact]
    public void Make_curve_client_sets_the_server_key_and_the_client_keys()
    {
        using var client = new Socket(Context, SocketType.Dealer);

        client.MakeCurveClient(_clientKeys, _serverKeys.PublicKey);

        Assert.Equal((int)SecurityMechanism.Curve, client.GetOption<int>(SocketOption.Mechanism));
        Assert.False(client.GetOption<bool>(SocketOption.CurveServer));
        Assert.Equal(_serverKeys.PublicKey, client.GetOption<string>(SocketOption.CurveServerKey));
        Assert.Equal(_clientKeys.PublicKey, client.GetOption<string>(SocketOption.CurvePublicKey));
        Assert.Equal(_clientKeys.SecretKey, client.GetOption<string>(SocketOption.CurveSecretKey));
    }

    [Fact]
    public void A_client_with_the_wrong_server_key_gets_nothing_through_while_a_right_one_does()
    {
        using var server = Sockets.New(Context, SocketType.Pull);
        using var intruder = new Socket(Context, SocketType.Push);
        using var friend = new Socket(Context, SocketType.Push);
        server.MakeCurveServer(_serverKeys);
        intruder.MakeCurveClient(_clientKeys, Curve.GenerateKeyPair().PublicKey);
        friend.MakeCurveClient(_clientKeys, _serverKeys.PublicKey);
        intruder.Connect(Endpoints.BindTcp(server));
        intruder.Send("intruder");
        friend.Connect(server.LastEndpoint);
        friend.Send("friend");

        Assert.Equal("friend", server.RecvString());
        server.SetOption(SocketOption.ReceiveTimeout, 300);
        var error = Assert.Throws<ZmqException>(() => server.RecvString());
        Assert.Equal(ZmqError.EAGAIN, error.ErrorNumber);
    }

    [Fact]
    public void Curve_helpers_validate_their_arguments_before_changing_the_socket()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Throws<ArgumentNullException>(() => socket.MakeCurveServer((string)null!));
        Assert.Throws<ArgumentNullException>(() => socket.MakeCurveServer((CurveKeyPair)null!));
        Assert.Throws<ArgumentException>(() => socket.MakeCurveServer("too short"));
        Assert.Throws<ArgumentNullException>(() => socket.MakeCurveClient(null!, _serverKeys.PublicKey));
        Assert.Throws<ArgumentNullException>(() => socket.MakeCurveClient(_clientKeys, null!));
        Assert.Throws<ArgumentException>(() => socket.MakeCurveClient(_clientKeys, new string('~', 40)));

        Assert.Equal((int)SecurityMechanism.Null, socket.GetOption<int>(SocketOption.Mechanism));
    }

    [Fact]
    public void Curve_helpers_on_a_disposed_socket_throw_ObjectDisposedException()
    {
        var socket = new Socket(Context, SocketType.Dealer);
        socket.Dispose();

        Assert.Throws<ObjectDisposedException>(() => socket.MakeCurveServer(_serverKeys));
        Assert.Throws<ObjectDisposedException>(() => socket.MakeCurveClient(_clientKeys, _serverKeys.PublicKey));
    }
}
