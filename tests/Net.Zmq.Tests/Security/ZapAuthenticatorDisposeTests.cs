using System.Diagnostics;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// Disposing a <see cref="ZapAuthenticator"/> fails closed: the server sockets it served, still open, refuse every peer
/// (libzmq itself would admit CURVE clients, and NULL peers of a socket with a ZAP domain, with no handler bound).
/// </summary>
public sealed class ZapAuthenticatorDisposeTests : ContextPerTest
{
    [Fact]
    public void A_CURVE_server_refuses_an_unknown_key_before_and_after_its_authenticator_is_disposed()
    {
        CurveCertificate server = CurveCertificate.Generate();
        CurveCertificate known = CurveCertificate.Generate();
        var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AllowCurveKey(known.PublicKey);
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        pull.MakeCurveServer(server.KeyPair);
        using var events = new SocketMonitor(pull, Outcomes);
        string endpoint = Endpoints.BindTcp(pull);

        Assert.Equal((SocketEvents.HandshakeFailedAuth, 400), Handshake(events, endpoint, c => c.MakeCurveClient(CurveCertificate.Generate().KeyPair, server.PublicKey)));
        Assert.Equal((SocketEvents.HandshakeSucceeded, 0), Handshake(events, endpoint, c => c.MakeCurveClient(known.KeyPair, server.PublicKey)));
        Assert.Equal("from a known key", pull.RecvString());

        auth.Dispose();

        Assert.Equal((SocketEvents.HandshakeFailedAuth, 400), Handshake(events, endpoint, c => c.MakeCurveClient(CurveCertificate.Generate().KeyPair, server.PublicKey)));
        Assert.Equal((SocketEvents.HandshakeFailedAuth, 400), Handshake(events, endpoint, c => c.MakeCurveClient(known.KeyPair, server.PublicKey)));
        Assert.False(pull.TryRecvString(out _));
    }

    [Fact]
    public void A_NULL_socket_with_a_ZAP_domain_and_a_deny_list_refuses_the_denied_address_after_dispose()
    {
        var auth = new ZapAuthenticator(Context);
        auth.ForDomain("edge").DenyAddress("127.0.0.2");
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        pull.SetOption(SocketOption.ZapDomain, "edge");
        using var events = new SocketMonitor(pull, Outcomes);
        int port = new Uri(Endpoints.BindTcp(pull)).Port;

        Assert.Equal((SocketEvents.HandshakeFailedAuth, 400), Handshake(events, $"tcp://127.0.0.2:0;127.0.0.1:{port}", _ => { }));

        auth.Dispose();

        Assert.Equal((SocketEvents.HandshakeFailedAuth, 400), Handshake(events, $"tcp://127.0.0.2:0;127.0.0.1:{port}", _ => { }));
        Assert.Equal((SocketEvents.HandshakeFailedAuth, 400), Handshake(events, $"tcp://127.0.0.1:{port}", _ => { }));
        Assert.False(pull.TryRecvString(out _));
    }

    [Fact]
    public void After_dispose_every_request_is_refused_until_a_new_authenticator_takes_over()
    {
        var first = new ZapAuthenticator(Context);
        first.DefaultPolicy.AllowAnyCurveKey();
        byte[] key = CurveCertificate.Generate().PublicKeyBytes;
        Assert.Equal("200", ZapRequests.Ask(Context, "", "10.0.0.1", "CURVE", key).Status);

        first.Dispose();
        Assert.Equal("400", ZapRequests.Ask(Context, "", "10.0.0.1", "CURVE", key).Status);
        Assert.Equal("400", ZapRequests.Ask(Context, "any", "10.0.0.1", "NULL").Status);

        using var second = new ZapAuthenticator(Context);
        second.DefaultPolicy.AllowAnyCurveKey();
        Assert.Equal("200", ZapRequests.Ask(Context, "", "10.0.0.1", "CURVE", key).Status);
        Assert.Equal(1, first.RequestCount); // the refusals after Dispose are counted by nobody
        Assert.Equal(1, second.RequestCount);
    }

    [Fact]
    public async Task Dispose_returns_within_its_bound_while_a_Decided_handler_is_stuck_and_peers_stay_refused()
    {
        using var release = new ManualResetEventSlim();
        using var entered = new ManualResetEventSlim();
        var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AllowAnyCurveKey();
        auth.Decided += (_, _) =>
        {
            entered.Set();
            release.Wait();
        };
        using Socket requester = Sockets.New(Context, SocketType.Req);
        requester.Connect(ZapAuthenticator.Endpoint);
        byte[] key = CurveCertificate.Generate().PublicKeyBytes;
        try
        {
            Assert.Equal("200", ZapRequests.Ask(requester, "", "10.0.0.1", "CURVE", key).Status);
            Assert.True(entered.Wait(Timeouts.Wait));

            await Task.Run(auth.Dispose).WaitAsync(Timeouts.Wait); // throws TimeoutException when Dispose waits for the handler
        }
        finally
        {
            release.Set();
        }

        Assert.Equal("400", ZapRequests.Ask(Context, "", "10.0.0.1", "CURVE", key).Status);
    }

    [Fact]
    public async Task Dispose_from_a_Decided_handler_returns_at_once_and_the_next_peer_is_refused()
    {
        var auth = new ZapAuthenticator(Context);
        auth.DefaultPolicy.AllowAnyCurveKey();
        var disposed = new TaskCompletionSource<TimeSpan>(TaskCreationOptions.RunContinuationsAsynchronously);
        auth.Decided += (_, _) =>
        {
            long start = Stopwatch.GetTimestamp();
            auth.Dispose(); // on the authenticator's own thread, which must not wait for itself
            disposed.TrySetResult(Stopwatch.GetElapsedTime(start));
        };
        byte[] key = CurveCertificate.Generate().PublicKeyBytes;

        Assert.Equal("200", ZapRequests.Ask(Context, "", "10.0.0.1", "CURVE", key).Status);
        TimeSpan took = await disposed.Task.WaitAsync(Timeouts.Wait);

        Assert.True(took < ZapAuthenticator.DisposeTimeout / 2, $"Dispose from a Decided handler took {took.TotalMilliseconds:F0} ms: it waited for its own thread");
        Assert.Equal("400", ZapRequests.Ask(Context, "", "10.0.0.1", "CURVE", key).Status);
    }

    private const SocketEvents Outcomes = SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth |
                                          SocketEvents.HandshakeFailedProtocol | SocketEvents.HandshakeFailedNoDetail;

    /// <summary>Connects a PUSH client configured by <paramref name="configure"/>, sends one message, and returns the server's handshake event and value.</summary>
    private (SocketEvents Event, int Value) Handshake(SocketMonitor events, string endpoint, Action<Socket> configure)
    {
        using Socket push = Sockets.New(Context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        configure(push);
        push.Connect(endpoint);
        push.Send("from a known key", SendFlags.DontWait);
        SocketMonitorEvent outcome = events.WaitFor(Outcomes, Timeouts.Wait);
        if (outcome.Event == SocketEvents.HandshakeSucceeded)
        {
            // The message may still be on its way: a zero linger would drop it when push is disposed.
            push.SetOption(SocketOption.Linger, Timeouts.WaitMs);
            return (outcome.Event, 0);
        }

        return (outcome.Event, outcome.Value);
    }
}
