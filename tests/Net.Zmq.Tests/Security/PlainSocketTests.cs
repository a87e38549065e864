using System.Text;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

public sealed class PlainSocketTests : ContextPerTest
{
    private const string ZapEndpoint = "inproc://zeromq.zap.01";

    [Fact]
    public void Make_plain_server_sets_the_plain_server_flag()
    {
        using var server = new Socket(Context, SocketType.Rep);

        server.MakePlainServer();

        Assert.True(server.GetOption<bool>(SocketOption.PlainServer));
        Assert.Equal((int)SecurityMechanism.Plain, server.GetOption<int>(SocketOption.Mechanism));
    }

    [Fact]
    public void Make_plain_client_sets_the_user_name_and_the_password()
    {
        using var client = new Socket(Context, SocketType.Req);

        client.MakePlainClient("admin", "s3cr\u00E9t");

        Assert.Equal("admin", client.GetOption<string>(SocketOption.PlainUsername));
        Assert.Equal("s3cr\u00E9t", client.GetOption<string>(SocketOption.PlainPassword));
        Assert.False(client.GetOption<bool>(SocketOption.PlainServer));
        Assert.Equal((int)SecurityMechanism.Plain, client.GetOption<int>(SocketOption.Mechanism));
    }

    [Fact]
    public async Task Plain_client_and_server_exchange_messages_once_a_zap_handler_accepts_the_user()
    {
        using var handler = Sockets.New(Context, SocketType.Rep);
        handler.Bind(ZapEndpoint);
        Task<List<string>> zap = Task.Run(() => AnswerOneZapRequest(handler, "200"));
        using var server = Sockets.New(Context, SocketType.Rep);
        using var client = Sockets.New(Context, SocketType.Req);
        server.MakePlainServer();
        client.MakePlainClient("admin", "secret");
        client.Connect(Endpoints.BindTcp(server));

        client.Send("hello over plain");
        Assert.Equal("hello over plain", server.RecvString());
        server.Send("welcome");
        Assert.Equal("welcome", client.RecvString());

        List<string> request = await zap.WaitAsync(Timeouts.Wait);
        Assert.Equal("PLAIN", request[5]);
        Assert.Equal("admin", request[6]);
        Assert.Equal("secret", request[7]);
    }

    [Fact]
    public async Task Plain_client_gets_nothing_through_when_the_zap_handler_refuses_it()
    {
        using var handler = Sockets.New(Context, SocketType.Rep);
        handler.Bind(ZapEndpoint);
        Task<List<string>> zap = Task.Run(() => AnswerOneZapRequest(handler, "400"));
        using Socket server = PlainServerWithShortTimeout();
        using Socket client = PlainClientSending(server, "mallory", "guess", "let me in");

        List<string> request = await zap.WaitAsync(Timeouts.Wait);
        Assert.Equal("mallory", request[6]);
        var error = Assert.Throws<ZmqException>(() => server.RecvString());
        Assert.Equal(ZmqError.EAGAIN, error.ErrorNumber);
    }

    [Fact]
    public void Plain_client_gets_nothing_through_without_a_zap_handler_in_libzmq_4_3()
    {
        using Socket server = PlainServerWithShortTimeout();
        using Socket client = PlainClientSending(server, "admin", "secret", "no handler");

        var error = Assert.Throws<ZmqException>(() => server.RecvString());
        Assert.Equal(ZmqError.EAGAIN, error.ErrorNumber);
    }

    [Fact]
    public void Make_plain_client_rejects_missing_empty_and_overlong_credentials()
    {
        using var client = new Socket(Context, SocketType.Req);
        string tooLong = new('x', 256);
        string tooLongInUtf8 = new('\u00E9', 128);

        Assert.Throws<ArgumentNullException>(() => client.MakePlainClient(null!, "secret"));
        Assert.Throws<ArgumentNullException>(() => client.MakePlainClient("admin", null!));
        Assert.Throws<ArgumentException>(() => client.MakePlainClient("", "secret"));
        Assert.Throws<ArgumentException>(() => client.MakePlainClient("admin", ""));
        Assert.Throws<ArgumentException>(() => client.MakePlainClient(tooLong, "secret"));
        Assert.Throws<ArgumentException>(() => client.MakePlainClient("admin", tooLongInUtf8));
        Assert.Equal((int)SecurityMechanism.Null, client.GetOption<int>(SocketOption.Mechanism));

        client.MakePlainClient(new string('x', 255), new string('y', 255));
        Assert.Equal(255, client.GetOption<string>(SocketOption.PlainUsername).Length);
    }

    /// <summary>A bound PLAIN server (PULL) whose receive gives up after 300 ms: long enough for a message that was let in.</summary>
    private Socket PlainServerWithShortTimeout()
    {
        var server = new Socket(Context, SocketType.Pull);
        server.MakePlainServer();
        server.SetOption(SocketOption.ReceiveTimeout, 300);
        server.Bind(Endpoints.EphemeralTcp);
        return server;
    }

    /// <summary>A PLAIN client (PUSH) with these credentials, connected to <paramref name="server"/>, that has queued <paramref name="text"/>.</summary>
    private Socket PlainClientSending(Socket server, string user, string password, string text)
    {
        var client = new Socket(Context, SocketType.Push);
        client.MakePlainClient(user, password);
        client.Connect(server.LastEndpoint);
        client.Send(text);
        return client;
    }

    /// <summary>
    /// A minimal ZAP handler (RFC 27): reads one request (version, request id, domain, address, routing id,
    /// mechanism, credentials...) and answers with <paramref name="status"/>. Returns the request's frames.
    /// </summary>
    private static List<string> AnswerOneZapRequest(Socket handler, string status)
    {
        var frames = new List<byte[]>();
        do
        {
            frames.Add(handler.RecvBytes());
        }
        while (handler.HasMore);

        handler.SendMultipart(new[]
        {
            frames[0],
            frames[1],
            Encoding.ASCII.GetBytes(status),
            Encoding.ASCII.GetBytes(status == "200" ? "OK" : "Refused"),
            Encoding.ASCII.GetBytes("user"),
            [],
        });

        return frames.ConvertAll(f => Encoding.UTF8.GetString(f));
    }
}
