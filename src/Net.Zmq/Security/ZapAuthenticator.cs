using System.Collections.Concurrent;
using Net.Zmq.Internal;

namespace Net.Zmq.Security;

/// <summary>
/// A ZAP handler (ZeroMQ RFC 27): libzmq asks it, over <c>inproc://zeromq.zap.01</c>, whether each peer that connects
/// to a PLAIN or CURVE server socket of this context (or to any socket with a <see cref="SocketOption.ZapDomain"/>)
/// may proceed. It answers from <see cref="ZapPolicy"/> objects, one per ZAP domain, on a thread of its own.
/// </summary>
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

    private static long s_counter;
    private readonly ConcurrentDictionary<string, ZapPolicy> _policies = new(StringComparer.Ordinal);
    private readonly Socket _handler;
    private readonly Socket _stopReceiver;
    private readonly Socket _stopSender;
    private readonly Thread _thread;
    private long _requestCount;
    private int _disposed;

    /// <summary>Starts answering ZAP requests for <paramref name="context"/>. Only one authenticator can serve a context.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
    /// <exception cref="ZmqException">EADDRINUSE: the context already has a ZAP handler.</exception>
    public ZapAuthenticator(Context context)
    {
        ArgumentNullException.ThrowIfNull(context);
        string stopEndpoint = $"inproc://net.zmq.zap.stop.{Environment.ProcessId}.{Interlocked.Increment(ref s_counter)}";
        _handler = new Socket(context, SocketType.Rep);
        _stopReceiver = new Socket(context, SocketType.Pair);
        _stopSender = new Socket(context, SocketType.Pair);
        try
        {
            _handler.SetOption(SocketOption.Linger, 0);
            _handler.Bind(Endpoint);
            _stopReceiver.Bind(stopEndpoint);
            _stopSender.Connect(stopEndpoint);
        }
        catch
        {
            _handler.Dispose();
            _stopReceiver.Dispose();
            _stopSender.Dispose();
            throw;
        }

        _thread = new Thread(Serve) { IsBackground = true, Name = "Net.Zmq ZAP authenticator" };
        _thread.Start();
    }

    /// <summary>The policy for ZAP domains that have none of their own (including the empty domain).</summary>
    public ZapPolicy DefaultPolicy { get; } = new();

    /// <summary>The policy for <paramref name="domain"/> (the server socket's <see cref="SocketOption.ZapDomain"/>), created on first use.</summary>
    /// <exception cref="ArgumentException"><paramref name="domain"/> is null or empty (use <see cref="DefaultPolicy"/>).</exception>
    public ZapPolicy ForDomain(string domain)
    {
        ArgumentException.ThrowIfNullOrEmpty(domain);
        return _policies.GetOrAdd(domain, static _ => new ZapPolicy());
    }

    /// <summary>
    /// Raised on the authenticator's thread after each request is answered (one per handshake, not per message).
    /// Handlers must be quick and must not throw; an exception they throw is dropped.
    /// </summary>
    public event EventHandler<ZapDecisionEventArgs>? Decided;

    /// <summary>The number of requests answered so far (for diagnostics).</summary>
    public long RequestCount => Interlocked.Read(ref _requestCount);

    /// <summary>Stops answering and waits for the handler thread to end. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        try
        {
            _stopSender.Send(ReadOnlySpan<byte>.Empty, SendFlags.DontWait);
        }
        catch (ZmqException)
        {
            // The context is already shut down: the handler thread stops on ETERM by itself.
        }

        _thread.Join();
        _stopSender.Dispose();
    }

    private void Serve()
    {
        using var request = new MultipartMessage();
        using var reply = new MultipartMessage();
        using var poller = new Poller(2);
        try
        {
            int handlerIndex = poller.Add(_handler, PollEvents.In);
            int stopIndex = poller.Add(_stopReceiver, PollEvents.In);
            while (true)
            {
                poller.Poll(-1);
                if (poller.IsReadable(stopIndex))
                {
                    return;
                }

                if (poller.IsReadable(handlerIndex) && _handler.RecvMultipart(request, RecvFlags.DontWait))
                {
                    Answer(request, reply);
                    ZapDecisionEventArgs? decision = Decided is null ? null : Describe(request, reply); // before the send empties the reply
                    _handler.SendMultipart(reply);
                    Interlocked.Increment(ref _requestCount);
                    if (decision is not null)
                    {
                        Report(decision);
                    }
                }
            }
        }
        catch (ContextTerminatedException)
        {
            // The context was shut down: stop quietly.
        }
        finally
        {
            poller.Dispose();
            ReleaseEndpoint();
            _handler.Dispose();
            _stopReceiver.Dispose();
        }
    }

    /// <summary>
    /// Unbinds the ZAP endpoint before closing: a close releases an inproc endpoint only later, on libzmq's
    /// reaper thread, and a new authenticator created right after Dispose must be able to bind it.
    /// </summary>
    private void ReleaseEndpoint()
    {
        try
        {
            _handler.Unbind(Endpoint);
        }
        catch (ZmqException)
        {
            // Context terminated: the endpoint goes with it.
        }
    }

    private static ZapDecisionEventArgs Describe(MultipartMessage request, MultipartMessage reply)
    {
        static string Frame(MultipartMessage frames, int index) => frames.Count > index ? frames[index].ToString() : "";
        return new ZapDecisionEventArgs(
            Frame(request, 2), Frame(request, 3), Frame(request, 5), reply[2].ToString(), reply[3].ToString(), reply[4].ToString());
    }

    /// <summary>Raises <see cref="Decided"/> for an answered request.</summary>
    private void Report(ZapDecisionEventArgs decision)
    {
        try
        {
            Decided?.Invoke(this, decision);
        }
        catch (Exception)
        {
            // A handler's failure must not stop the authenticator, which every handshake of the context waits on.
        }
    }

    private void Answer(MultipartMessage request, MultipartMessage reply)
    {
        ZapDecision decision;
        if (request.Count < 6 || request[0].ToString() != "1.0")
        {
            decision = new ZapDecision("500", "Malformed ZAP request", "");
        }
        else
        {
            string domain = request[2].ToString();
            ZapPolicy policy = domain.Length > 0 && _policies.TryGetValue(domain, out ZapPolicy? own) ? own : DefaultPolicy;
            try
            {
                decision = policy.Decide(request[3].ToString(), request[5].ToString(), request);
            }
            catch (Exception ex)
            {
                decision = new ZapDecision("500", $"Authenticator error: {ex.GetType().Name}", "");
            }
        }

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
