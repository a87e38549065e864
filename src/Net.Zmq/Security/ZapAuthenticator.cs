using System.Collections.Concurrent;
using System.Diagnostics;

namespace Net.Zmq.Security;

/// <summary>
/// A ZAP handler (ZeroMQ RFC 27): libzmq asks it, over <c>inproc://zeromq.zap.01</c>, whether each peer that connects
/// to a PLAIN or CURVE server socket of this context (or to any socket with a <see cref="SocketOption.ZapDomain"/>)
/// may proceed. It answers from <see cref="ZapPolicy"/> objects, one per ZAP domain, on a thread of its own.
/// </summary>
/// <remarks>
/// <para>
/// It fails closed. Dispose does not unbind the ZAP endpoint: the context keeps a handler bound there until the
/// context ends, which refuses every request while no authenticator is attached (status 400). The other ways were
/// worse: with nothing bound libzmq 4.3.4 admits CURVE clients and NULL peers of sockets with a ZAP domain (only
/// PLAIN fails), <see cref="SocketOption.ZapEnforceDomain"/> is a draft option that the authenticator cannot set on
/// sockets it does not own (and libzmq copies options into a listener at bind), and refusing to dispose while server
/// sockets are open cannot be checked from here. A new authenticator on the same context takes the endpoint over.
/// </para>
/// <para>
/// The thread survives what runs on it: a policy error, a <see cref="Decided"/> handler or a metrics listener that
/// throws. A request whose policy or listener failed is answered 500 and reported (the <see cref="Decided"/> event and
/// <see cref="System.Diagnostics.Trace"/>).
/// </para>
/// </remarks>
/// <example>
/// <code>
/// using var auth = new ZapAuthenticator(context);
/// auth.DefaultPolicy.AllowAddress("127.0.0.1").AddPlainUser("admin", "secret");
/// server.SetOption(SocketOption.PlainServer, true);
/// </code>
/// </example>
public sealed class ZapAuthenticator : IDisposable
{
    /// <summary>The endpoint libzmq sends ZAP requests to.</summary>
    public const string Endpoint = "inproc://zeromq.zap.01";

    /// <summary>How long <see cref="Dispose"/> waits for a request being answered (its Decided handlers) to finish.</summary>
    internal static readonly TimeSpan DisposeTimeout = TimeSpan.FromSeconds(2);

    private readonly ConcurrentDictionary<string, ZapPolicy> _policies = new(StringComparer.Ordinal);
    private readonly ZapHandler _handler;
    private long _requestCount;
    private int _disposed;

    /// <summary>
    /// Starts answering ZAP requests for <paramref name="context"/>. Only one authenticator can serve a context at a
    /// time; once it is disposed, another can.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
    /// <exception cref="ObjectDisposedException"><paramref name="context"/> is disposed.</exception>
    /// <exception cref="ZmqException">EADDRINUSE: another authenticator serves the context, or another ZAP handler is bound to <see cref="Endpoint"/>.</exception>
    public ZapAuthenticator(Context context)
    {
        ArgumentNullException.ThrowIfNull(context);
        _handler = ZapHandler.Attach(context, this);
    }

    /// <summary>The policy for ZAP domains that have none of their own (including the empty domain).</summary>
    public ZapPolicy DefaultPolicy { get; } = new();

    /// <summary>
    /// The policy for <paramref name="domain"/> (the server socket's <see cref="SocketOption.ZapDomain"/>, compared
    /// exactly), created on first use. It takes the place of <see cref="DefaultPolicy"/> for that domain, address lists
    /// included: give it its own.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="domain"/> is null or empty (use <see cref="DefaultPolicy"/>).</exception>
    public ZapPolicy ForDomain(string domain)
    {
        ArgumentException.ThrowIfNullOrEmpty(domain);
        return _policies.GetOrAdd(domain, static _ => new ZapPolicy());
    }

    /// <summary>The number of requests answered so far (for diagnostics).</summary>
    public long RequestCount => Interlocked.Read(ref _requestCount);

    /// <summary>
    /// Raised after each answer is sent, on the authenticator's thread: who asked, and what was decided. Handlers
    /// should return quickly (the next handshake waits for them); an exception a handler throws is swallowed and
    /// reported through <see cref="System.Diagnostics.Trace"/>, so that the authenticator keeps answering and the other
    /// handlers still run.
    /// </summary>
    public event EventHandler<ZapDecisionEventArgs>? Decided;

    /// <summary>
    /// Stops this authenticator's policies from answering. The context's ZAP endpoint stays bound and refuses every
    /// peer until the context ends or another authenticator is created on it, so sockets that relied on this one fail
    /// closed. Waits up to two seconds for a request being answered (its <see cref="Decided"/> handlers); if they have
    /// not returned by then it reports that through <see cref="System.Diagnostics.Trace"/> and returns (called from a
    /// <see cref="Decided"/> handler, it does not wait). Calling it again does nothing.
    /// </summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        if (!_handler.Detach(this, DisposeTimeout))
        {
            Trace.TraceWarning(
                $"ZapAuthenticator.Dispose: a Decided handler was still running after {DisposeTimeout.TotalSeconds} s; returning without it. " +
                "Until it returns no ZAP request of this context is answered, so handshakes that need one wait and then fail.");
        }
    }

    /// <summary>Decides one well-formed request with the policy of its domain; a policy that throws gives 500.</summary>
    internal ZapDecision Decide(string domain, string address, string mechanism, MultipartMessage request)
    {
        ZapPolicy policy = domain.Length > 0 && _policies.TryGetValue(domain, out ZapPolicy? own) ? own : DefaultPolicy;
        try
        {
            return policy.Decide(address, mechanism, request);
        }
#pragma warning disable CA1031 // Whatever a policy throws, the request gets 500 and the thread goes on.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Trace.TraceError($"ZapAuthenticator: deciding a {mechanism} request from {address} threw {ex.GetType().Name}: {ex.Message}; answered 500.");
            return new ZapDecision("500", $"Authenticator error: {ex.GetType().Name}", "");
        }
    }

    /// <summary>Counts an answer about to be sent for this authenticator; runs on the handler's thread.</summary>
    internal void CountAnswer() => Interlocked.Increment(ref _requestCount);

    /// <summary>Raises <see cref="Decided"/> for an answer sent; runs on the handler's thread.</summary>
    internal void OnAnswered(ZapDecisionEventArgs args)
    {
        if (Decided is not { } handlers)
        {
            return;
        }

        foreach (EventHandler<ZapDecisionEventArgs> handler in handlers.GetInvocationList().Cast<EventHandler<ZapDecisionEventArgs>>())
        {
            try
            {
                handler(this, args);
            }
#pragma warning disable CA1031 // A subscriber's failure must not stop the authenticator (every later handshake would hang) nor the other subscribers.
            catch (Exception ex)
#pragma warning restore CA1031
            {
                Trace.TraceWarning($"ZapAuthenticator.Decided: a handler threw {ex.GetType().Name}: {ex.Message}");
            }
        }
    }
}
