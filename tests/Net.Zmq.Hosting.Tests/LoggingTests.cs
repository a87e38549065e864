using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Hosting.Tests;

/// <summary>Socket events and ZAP decisions written to an ILogger.</summary>
public sealed class LoggingTests
{
    private const int SocketEventId = 10;

    [Fact]
    public void LogEvents_logs_listening_connections_and_their_loss_at_their_levels()
    {
        var logs = new CollectingLogger();
        using Context context = Sockets.NewContext();
        using var server = new Socket(context, SocketType.Router);
        using IDisposable events = server.LogEvents(logs);

        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.LastEndpoint;
        CollectingLogger.Entry listening = logs.WaitFor(e => e.Message.Contains("Listening", StringComparison.Ordinal), "for Listening");
        Assert.Equal(LogLevel.Information, listening.Level);
        Assert.Equal(SocketEventId, listening.EventId.Id);
        Assert.Contains($"Router socket: Listening {endpoint}", listening.Message, StringComparison.Ordinal);

        using (var client = new Socket(context, SocketType.Dealer))
        {
            client.Connect(endpoint);
            Assert.Equal(LogLevel.Information, logs.WaitFor(e => e.Message.Contains("Accepted", StringComparison.Ordinal), "for Accepted").Level);
            Assert.Equal(LogLevel.Debug, logs.WaitFor(e => e.Message.Contains("HandshakeSucceeded", StringComparison.Ordinal), "for HandshakeSucceeded").Level);
        }

        Assert.Equal(LogLevel.Information, logs.WaitFor(e => e.Message.Contains("Disconnected", StringComparison.Ordinal), "for Disconnected").Level);
    }

    [Fact]
    public void LogEvents_logs_only_the_events_asked_for_and_stops_when_disposed()
    {
        var logs = new CollectingLogger();
        using Context context = Sockets.NewContext();
        using var server = new Socket(context, SocketType.Router);
        IDisposable events = server.LogEvents(logs, SocketEvents.Accepted);
        server.Bind("tcp://127.0.0.1:*");
        using var client = new Socket(context, SocketType.Dealer);
        client.Connect(server.LastEndpoint);
        logs.WaitFor(e => e.Message.Contains("Accepted", StringComparison.Ordinal), "for Accepted");

        events.Dispose();
        using var accepts = new SocketMonitor(server, SocketEvents.Accepted);
        using var second = new Socket(context, SocketType.Dealer);
        second.Connect(server.LastEndpoint);
        accepts.WaitFor(SocketEvents.Accepted, Timeouts.Wait);

        Assert.Single(logs.Entries);
    }

    [Fact]
    public async Task ZAP_decisions_of_the_registered_authenticator_are_logged()
    {
        var logs = new CollectingLogger();
        using IHost host = new HostBuilder()
            .ConfigureLogging(logging => logging.AddProvider(logs))
            .ConfigureServices(services => services
                .AddZmqContext()
                .AddZmqZapAuthenticator(auth => auth.DefaultPolicy.AddPlainUser("admin", "secret")))
            .Build();
        await host.StartAsync();
        Context context = host.Services.GetRequiredService<Context>();
        _ = host.Services.GetRequiredService<ZapAuthenticator>();

        using var server = new Socket(context, SocketType.Rep);
        server.SetOption(SocketOption.PlainServer, true);
        server.Bind("tcp://127.0.0.1:*");
        using var intruder = PlainClient(context, server.LastEndpoint, "wrong");
        using var admin = PlainClient(context, server.LastEndpoint, "secret");

        const string category = "Net.Zmq.Security.ZapAuthenticator";
        CollectingLogger.Entry refused = logs.WaitFor(e => e.Category == category && e.Level == LogLevel.Warning, "refusing the wrong password");
        Assert.Contains("PLAIN peer from 127.0.0.1", refused.Message, StringComparison.Ordinal);
        Assert.Contains("400 Invalid user name or password", refused.Message, StringComparison.Ordinal);
        CollectingLogger.Entry allowed = logs.WaitFor(e => e.Category == category && e.Level == LogLevel.Information, "allowing admin");
        Assert.Contains("user 'admin'", allowed.Message, StringComparison.Ordinal);

        await host.StopAsync();
    }

    [Fact]
    public void LogDecisions_stops_logging_when_disposed()
    {
        var logs = new CollectingLogger();
        using Context context = Sockets.NewContext();
        using var auth = new ZapAuthenticator(context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        IDisposable decisions = auth.LogDecisions(logs);
        using var server = new Socket(context, SocketType.Rep);
        server.SetOption(SocketOption.PlainServer, true);
        server.SetOption(SocketOption.ReceiveTimeout, Timeouts.Wait);
        server.Bind("tcp://127.0.0.1:*");
        using (var first = PlainClient(context, server.LastEndpoint, "secret"))
        {
            logs.WaitFor(e => e.Level == LogLevel.Information, "allowing the first client");
        }

        decisions.Dispose();
        using var second = PlainClient(context, server.LastEndpoint, "secret");
        second.Send("hello");
        Assert.Equal("hello", server.RecvString()); // its handshake, and so its ZAP request, is done

        Assert.Single(logs.Entries);
    }

    /// <summary>A PLAIN client of user admin that sends a request and waits for nothing.</summary>
    private static Socket PlainClient(Context context, string endpoint, string password)
    {
        var client = new Socket(context, SocketType.Req);
        client.SetOption(SocketOption.Linger, 0);
        client.SetOption(SocketOption.PlainUsername, "admin");
        client.SetOption(SocketOption.PlainPassword, password);
        client.Connect(endpoint);
        return client;
    }
}
