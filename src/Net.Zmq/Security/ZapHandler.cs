using System.Diagnostics;
using System.Runtime.CompilerServices;
using Net.Zmq.Diagnostics;
using Net.Zmq.Interop;

namespace Net.Zmq.Security;

/// <summary>
/// The socket bound to <c>inproc://zeromq.zap.01</c> for one context, and the thread that answers it. The first
/// <see cref="ZapAuthenticator"/> of a context creates it; it stays bound until the context ends, whatever happens to
/// the authenticators: while one is attached its policies answer, and while none is (after Dispose) every request is
/// refused. libzmq admits CURVE peers, and NULL peers of a socket with a ZAP domain, when nothing is bound to the ZAP
/// endpoint, so unbinding would let everyone in.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001", Justification = "The socket belongs to the handler's thread, which closes it when the context ends; nothing else may close it.")]
internal sealed class ZapHandler
{
    /// <summary>The status text of the refusals sent while no authenticator is attached.</summary>
    internal const string NoAuthenticatorText = "No ZapAuthenticator serves this context (it was disposed): every peer is refused";

    private static readonly ConditionalWeakTable<Context, ZapHandler> s_handlers = [];

    private readonly Socket _socket;
    private readonly Thread _thread;

    // Invariant, under _gate: _current is the authenticator whose policies answer (null: refuse all); _answering is the
    // authenticator whose request the thread took and has not finished (reply sent, Decided raised), else null. The
    // reply is sent under _gate after checking that its authenticator is still _current, so once Detach has returned
    // no reply decided by a detached authenticator's policies can be sent.
    private readonly object _gate = new();
    private ZapAuthenticator? _current;
    private ZapAuthenticator? _answering;
    private volatile bool _stopped;

    private ZapHandler(Context context)
    {
        _socket = new Socket(context, SocketType.Rep);
        try
        {
            _socket.SetOption(SocketOption.Linger, 0);
            _socket.Bind(ZapAuthenticator.Endpoint);
        }
        catch
        {
            _socket.Dispose();
            throw;
        }

        _thread = new Thread(Serve) { IsBackground = true, Name = "Net.Zmq ZAP handler" };
    }

    /// <summary>Makes <paramref name="authenticator"/> answer the ZAP requests of <paramref name="context"/>.</summary>
    /// <exception cref="ObjectDisposedException">The context is disposed.</exception>
    /// <exception cref="ZmqException">EADDRINUSE: another authenticator serves the context, or another ZAP handler is bound.</exception>
    internal static ZapHandler Attach(Context context, ZapAuthenticator authenticator)
    {
        ObjectDisposedException.ThrowIf(context.IsDisposed, context);
        lock (s_handlers)
        {
            bool created = false;
            if (!s_handlers.TryGetValue(context, out ZapHandler? handler) || handler._stopped)
            {
                handler = new ZapHandler(context);
                s_handlers.AddOrUpdate(context, handler);
                created = true;
            }

            lock (handler._gate)
            {
                if (handler._current is not null)
                {
                    throw new ZmqException(Errno.EADDRINUSE,
                        "A ZapAuthenticator already serves this context: dispose it first, or configure its policies instead of creating another.");
                }

                handler._current = authenticator;
            }

            if (created)
            {
                handler._thread.Start();
            }

            return handler;
        }
    }

    /// <summary>
    /// Stops <paramref name="authenticator"/>'s policies from answering: from now on every request is refused. Waits
    /// up to <paramref name="timeout"/> for a request it is answering to finish (its Decided handlers to return);
    /// false when they did not in time. Called from a Decided handler (the handler's own thread) it does not wait: that
    /// request's reply is sent already, and the thread would wait for itself.
    /// </summary>
    internal bool Detach(ZapAuthenticator authenticator, TimeSpan timeout)
    {
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        lock (_gate)
        {
            if (_current == authenticator)
            {
                _current = null;
            }

            while (_answering == authenticator && !_stopped && Thread.CurrentThread != _thread)
            {
                long remaining = deadline - Environment.TickCount64;
                if (remaining <= 0 || !Monitor.Wait(_gate, (int)remaining))
                {
                    return _answering != authenticator;
                }
            }

            return true;
        }
    }

    private void Serve()
    {
        using var request = new MultipartMessage();
        using var reply = new MultipartMessage();
        bool contextEnded = false;
        try
        {
            while (true)
            {
                _socket.RecvMultipart(request);
                AnswerOne(request, reply);
            }
        }
        catch (ContextTerminatedException)
        {
            // The context is shutting down: the endpoint goes with it.
            contextEnded = true;
        }
#pragma warning disable CA1031 // Nothing may end this thread but the context: an unbound ZAP endpoint admits peers.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Trace.TraceError($"Net.Zmq ZAP handler: the socket failed ({ex.GetType().Name}: {ex.Message}); no ZAP request of this context is answered any more, so handshakes that need one fail.");
        }
        finally
        {
            _stopped = true;
            lock (_gate)
            {
                Monitor.PulseAll(_gate);
            }

            // Closing the socket unbinds the endpoint, after which libzmq admits CURVE peers: only when the context ends.
            // After any other failure it stays bound, unanswered, so handshakes fail (and libzmq's context is never
            // terminated: a leak, in preference to failing open).
            if (contextEnded)
            {
                _socket.Dispose();
            }
        }
    }

    private void AnswerOne(MultipartMessage request, MultipartMessage reply)
    {
        ZapAuthenticator? authenticator;
        lock (_gate)
        {
            Debug.Assert(_answering is null, "The handler thread answers one request at a time.");
            authenticator = _current;
            _answering = authenticator;
        }

        try
        {
            string domain = "", address = "", mechanism = "";
            ZapDecision decision;
            if (request.Count < 6 || request[0].ToString() != "1.0")
            {
                decision = new ZapDecision("500", "Malformed ZAP request", "");
            }
            else
            {
                domain = request[2].ToString();
                address = request[3].ToString();
                mechanism = request[5].ToString();
                decision = authenticator is null ? ZapDecision.Deny(NoAuthenticatorText) : authenticator.Decide(domain, address, mechanism, request);
            }

            decision = CountAnswer(mechanism, decision);
            lock (_gate)
            {
                if (authenticator is not null && _current != authenticator)
                {
                    decision = ZapDecision.Deny(NoAuthenticatorText);
                }

                BuildReply(request, reply, decision);
                authenticator?.CountAnswer(); // before the reply goes out: a peer that has its answer sees it counted
                _socket.SendMultipart(reply);
            }

            authenticator?.OnAnswered(new ZapDecisionEventArgs(domain, address, mechanism, decision.StatusCode, decision.StatusText, decision.UserId));
        }
        finally
        {
            lock (_gate)
            {
                _answering = null;
                Monitor.PulseAll(_gate);
            }
        }
    }

    /// <summary>
    /// Counts the answer in the "Net.Zmq" meter. A <see cref="System.Diagnostics.Metrics.MeterListener"/> callback runs
    /// inside this call; if it throws, the request is answered 500 (the authenticator cannot vouch for a peer while
    /// code it runs is failing) and the failure is reported, instead of ending the thread.
    /// </summary>
    private static ZapDecision CountAnswer(string mechanism, ZapDecision decision)
    {
        try
        {
            ZmqMetrics.ZapAnswered(mechanism, decision.StatusCode);
            return decision;
        }
#pragma warning disable CA1031 // A listener's failure must not end the ZAP thread.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Trace.TraceError($"Net.Zmq ZAP handler: a metrics listener threw {ex.GetType().Name} ({ex.Message}); the request was answered 500.");
            return new ZapDecision("500", $"Authenticator error: a metrics listener threw {ex.GetType().Name}", "");
        }
    }

    private static void BuildReply(MultipartMessage request, MultipartMessage reply, ZapDecision decision)
    {
        reply.Clear();
        reply.Add("1.0");
        if (request.Count > 1)
        {
            reply.Add(request[1].Data);
        }
        else
        {
            reply.AddEmpty();
        }

        reply.Add(decision.StatusCode);
        reply.Add(decision.StatusText);
        reply.Add(decision.UserId);
        reply.AddEmpty();
    }
}
