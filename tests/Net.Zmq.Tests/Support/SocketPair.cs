namespace Net.Zmq.Tests.Support;

/// <summary>
/// The arrangement most tests start from: a context of its own and two sockets with timeouts, one bound (over
/// loopback tcp or a fresh inproc name) and one connected to it (<see cref="Open"/>), or to be connected when the test
/// says so (<see cref="OpenUnconnected"/>, <see cref="Connect"/>). Disposing the pair disposes all three.
/// </summary>
/// <example>
/// <code>
/// using var pair = SocketPair.Open(SocketType.Rep, SocketType.Req);
/// var (rep, req) = pair;
/// </code>
/// </example>
internal sealed class SocketPair : IDisposable
{
    private SocketPair(Context context, Socket binder, Socket connector, string endpoint)
    {
        Context = context;
        Binder = binder;
        Connector = connector;
        Endpoint = endpoint;
    }

    /// <summary>The context both sockets belong to (see <see cref="Sockets.NewContext"/>).</summary>
    public Context Context { get; }

    /// <summary>The socket that binds.</summary>
    public Socket Binder { get; }

    /// <summary>The socket that connects to <see cref="Binder"/>.</summary>
    public Socket Connector { get; }

    /// <summary>The endpoint <see cref="Binder"/> is bound to.</summary>
    public string Endpoint { get; }

    /// <summary>
    /// Binds a <paramref name="binderType"/> socket over loopback tcp (or, with <paramref name="inproc"/>, a fresh inproc
    /// name) and connects a <paramref name="connectorType"/> socket to it. <paramref name="configure"/> gets the binder
    /// and the connector before either binds or connects, for the options that only count when set before (a routing
    /// id, ProbeRouter, a high water mark).
    /// </summary>
    public static SocketPair Open(SocketType binderType, SocketType connectorType, bool inproc = false, Action<Socket, Socket>? configure = null)
    {
        SocketPair pair = OpenUnconnected(binderType, connectorType, inproc, configure);
        pair.Connect();
        return pair;
    }

    /// <summary>
    /// Like <see cref="Open"/>, but the connector stays unconnected until the test calls <see cref="Connect"/>: for
    /// what a bound socket does while it has no peer (a send that waits, a queue that fills).
    /// </summary>
    public static SocketPair OpenUnconnected(SocketType binderType, SocketType connectorType, bool inproc = false, Action<Socket, Socket>? configure = null)
    {
        Context context = Sockets.NewContext();
        Socket binder = Sockets.New(context, binderType);
        Socket connector = Sockets.New(context, connectorType);
        configure?.Invoke(binder, connector);
        string endpoint = inproc ? Endpoints.BindInproc(binder) : Endpoints.BindTcp(binder);
        return new SocketPair(context, binder, connector, endpoint);
    }

    /// <summary>Connects <see cref="Connector"/> to <see cref="Endpoint"/> (done by <see cref="Open"/> already).</summary>
    public void Connect() => Connector.Connect(Endpoint);

    /// <summary>Lets a test name the two sockets by their role: <c>var (rep, req) = pair;</c>.</summary>
    public void Deconstruct(out Socket binder, out Socket connector)
    {
        binder = Binder;
        connector = Connector;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Connector.Dispose();
        Binder.Dispose();
        Context.Dispose();
    }
}
