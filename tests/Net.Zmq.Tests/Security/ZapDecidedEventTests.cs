using System.Collections.Concurrent;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary><see cref="ZapAuthenticator.Decided"/>: every answer is reported, and a failing subscriber does not stop the authenticator.</summary>
public sealed class ZapDecidedEventTests : AuthenticatorPerTest
{
    private readonly BlockingCollection<ZapDecisionEventArgs> _decisions = [];

    public ZapDecidedEventTests() => Authenticator.ForDomain("inside").AddPlainUser("admin", "secret");

    [Fact]
    public void Each_answer_is_reported_with_the_request_and_the_decision_even_when_a_handler_throws()
    {
        Authenticator.Decided += (_, _) => throw new InvalidOperationException("a broken subscriber");
        Authenticator.Decided += (_, decision) => _decisions.Add(decision);

        Assert.Equal(SocketEvents.HandshakeFailedAuth, PlainHandshake("wrong"));
        Assert.Equal(SocketEvents.HandshakeSucceeded, PlainHandshake("secret"));

        // The first handler throws every time; the authenticator still answers and the second handler still hears both.
        Assert.True(_decisions.TryTake(out ZapDecisionEventArgs? first, Timeouts.Wait));
        Assert.True(_decisions.TryTake(out ZapDecisionEventArgs? second, Timeouts.Wait));
        Assert.Equal((400, 200), (first.StatusCode, second.StatusCode));
    }

    [Fact]
    public void An_allowed_and_a_denied_request_are_described()
    {
        Authenticator.Decided += (_, decision) => _decisions.Add(decision);

        PlainHandshake("wrong");
        PlainHandshake("secret");

        Assert.True(_decisions.TryTake(out ZapDecisionEventArgs? denied, Timeouts.Wait));
        Assert.True(_decisions.TryTake(out ZapDecisionEventArgs? allowed, Timeouts.Wait));
        Assert.Equal(("inside", "127.0.0.1", "PLAIN", 400, false, ""), (denied.Domain, denied.Address, denied.Mechanism, denied.StatusCode, denied.IsAllowed, denied.UserId));
        Assert.Equal((200, true, "admin", "OK"), (allowed.StatusCode, allowed.IsAllowed, allowed.UserId, allowed.StatusText));
        Assert.Contains("PLAIN from 127.0.0.1", allowed.ToString(), StringComparison.Ordinal);
    }

    protected override void Dispose(bool disposing)
    {
        _decisions.Dispose();
        base.Dispose(disposing);
    }

    private SocketEvents PlainHandshake(string password)
    {
        using Socket server = Sockets.New(Context, SocketType.Pull);
        server.MakePlainServer();
        server.SetOption(SocketOption.ZapDomain, "inside");
        using var events = new SocketMonitor(server, SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth);
        string endpoint = Endpoints.BindTcp(server);
        using Socket client = Sockets.New(Context, SocketType.Push);
        client.MakePlainClient("admin", password);
        client.Connect(endpoint);
        return events.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Timeouts.Wait).Event;
    }
}
