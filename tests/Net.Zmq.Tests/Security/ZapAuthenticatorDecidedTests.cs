using System.Collections.Concurrent;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary><see cref="ZapAuthenticator.Decided"/>: one report per answered request, with who asked and what it was told.</summary>
public sealed class ZapAuthenticatorDecidedTests : IDisposable
{
    private readonly Context _context = Sockets.NewContext();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void Decided_reports_an_allowed_and_a_refused_PLAIN_peer()
    {
        using var auth = new ZapAuthenticator(_context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        var decisions = new BlockingCollection<ZapDecisionEventArgs>();
        auth.Decided += (sender, decision) =>
        {
            Assert.Same(auth, sender);
            decisions.Add(decision);
        };
        using var server = PlainServer();

        using (var refused = PlainClient(server.LastEndpoint, "wrong"))
        {
            Assert.True(decisions.TryTake(out ZapDecisionEventArgs? denied, Timeouts.Wait), "no decision reported");
            Assert.False(denied.IsAllowed);
            Assert.Equal(("PLAIN", "127.0.0.1", "", "400", "Invalid user name or password", ""),
                (denied.Mechanism, denied.Address, denied.Domain, denied.StatusCode, denied.StatusText, denied.UserId));
        }

        using var allowed = PlainClient(server.LastEndpoint, "secret");
        Assert.True(decisions.TryTake(out ZapDecisionEventArgs? accepted, Timeouts.Wait), "no decision reported");
        Assert.True(accepted.IsAllowed);
        Assert.Equal(("200", "OK", "admin"), (accepted.StatusCode, accepted.StatusText, accepted.UserId));
    }

    [Fact]
    public void A_handler_that_throws_does_not_stop_the_authenticator()
    {
        using var auth = new ZapAuthenticator(_context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        auth.Decided += (_, _) => throw new InvalidOperationException("a broken handler");
        using var server = PlainServer();

        using (var first = PlainClient(server.LastEndpoint, "secret"))
        {
            first.Send("one");
            Assert.Equal("one", server.RecvString());
        }

        using var second = PlainClient(server.LastEndpoint, "secret");
        second.Send("two");
        Assert.Equal("two", server.RecvString());
    }

    private Socket PlainServer()
    {
        Socket server = Sockets.New(_context, SocketType.Pull);
        server.SetOption(SocketOption.PlainServer, true);
        server.Bind("tcp://127.0.0.1:*");
        return server;
    }

    private Socket PlainClient(string endpoint, string password)
    {
        var client = new Socket(_context, SocketType.Push);
        client.SetOption(SocketOption.PlainUsername, "admin");
        client.SetOption(SocketOption.PlainPassword, password);
        client.Connect(endpoint);
        return client;
    }
}
