namespace Net.Zmq.Tests.Support;

/// <summary>
/// The arrangement most tests start from: a context of its own and two sockets with timeouts, one bound (over
/// loopback tcp or a fresh inproc name) and one connected to it. Disposing the pair disposes all three.
/// </summary>
/// <example>
/// <code>
/// using var pair = ConnectedPair.Open(SocketType.Rep, SocketType.Req);
/// var (rep, req) = pair;
/// </code>
/// </example>
internal sealed class ConnectedPair : IDisposable
{
    private ConnectedPair(Context context, Socket binder, Socket connector, string endpoint)
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
    /// name) and connects a <paramref name="connectorType"/> socket to it. <paramref name="beforeConnect"/> gets the
    /// binder and the connector first, for the options that only count when set before connecting (a routing id,
    /// ProbeRouter, a high water mark).
    /// </summary>
    public static ConnectedPair Open(SocketType binderType, SocketType connectorType, bool inproc = false, Action<Socket, Socket>? beforeConnect = null)
    {
        Context context = Sockets.NewContext();
        Socket binder = Sockets.New(context, binderType);
        Socket connector = Sockets.New(context, connectorType);
        beforeConnect?.Invoke(binder, connector);
        string endpoint = inproc ? Endpoints.BindInproc(binder) : Endpoints.BindTcp(binder);
        connector.Connect(endpoint);
        return new ConnectedPair(context, binder, connector, endpoint);
    }

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
