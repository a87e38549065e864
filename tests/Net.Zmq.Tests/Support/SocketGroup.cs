namespace Net.Zmq.Tests.Support;

/// <summary>
/// Many sockets of one test, disposed together (before their context, when the group owns it): for tests with more
/// sockets than a <see cref="SocketPair"/> holds, such as a socket fed by several peers or a poller over many pairs.
/// Every socket is made by <see cref="Sockets.New"/>, so its blocking calls give up after <see cref="Timeouts.Wait"/>.
/// </summary>
/// <example>
/// <code>
/// using var group = new SocketGroup(Context);
/// Socket sink = group.New(SocketType.Pull);
/// Socket[] senders = group.ConnectedTo(Endpoints.BindTcp(sink), SocketType.Push, 4);
/// </code>
/// </example>
internal sealed class SocketGroup : IDisposable
{
    private readonly List<Socket> _sockets = [];
    private readonly Context? _ownContext;

    /// <summary>A group of sockets in <paramref name="context"/>, which the caller keeps and disposes.</summary>
    public SocketGroup(Context context) => Context = context;

    private SocketGroup(Context context, bool ownsContext)
        : this(context) => _ownContext = ownsContext ? context : null;

    /// <summary>The context the sockets belong to.</summary>
    public Context Context { get; }

    /// <summary>
    /// A group with a context of its own, with room for <paramref name="maxSockets"/> sockets (more than libzmq's default
    /// of 1023, for tests with a thousand pairs) and no linger; disposing the group disposes the context too.
    /// </summary>
    public static SocketGroup WithOwnContext(int maxSockets) =>
        new(Sockets.NewContext(maxSockets), ownsContext: true);

    /// <summary>A new socket of <paramref name="type"/> in this group.</summary>
    public Socket New(SocketType type)
    {
        Socket socket = Sockets.New(Context, type);
        _sockets.Add(socket);
        return socket;
    }

    /// <summary><paramref name="count"/> new sockets of <paramref name="type"/> in this group.</summary>
    public Socket[] New(SocketType type, int count)
    {
        var sockets = new Socket[count];
        for (int i = 0; i < count; i++)
        {
            sockets[i] = New(type);
        }

        return sockets;
    }

    /// <summary><paramref name="count"/> new sockets of <paramref name="type"/>, each connected to <paramref name="endpoint"/>.</summary>
    public Socket[] ConnectedTo(string endpoint, SocketType type, int count)
    {
        Socket[] sockets = New(type, count);
        foreach (Socket socket in sockets)
        {
            socket.Connect(endpoint);
        }

        return sockets;
    }

    /// <summary>
    /// <paramref name="count"/> new sockets of <paramref name="type"/>, each bound over loopback tcp (or, with
    /// <paramref name="inproc"/>, a fresh inproc name), and <paramref name="connector"/> connected to every one.
    /// </summary>
    public Socket[] BoundPeersOf(Socket connector, SocketType type, int count, bool inproc = false)
    {
        Socket[] sockets = New(type, count);
        foreach (Socket socket in sockets)
        {
            connector.Connect(Bind(socket, inproc));
        }

        return sockets;
    }

    /// <summary>
    /// <paramref name="count"/> pairs: a <paramref name="binderType"/> socket bound over loopback tcp (or, with
    /// <paramref name="inproc"/>, a fresh inproc name) and a <paramref name="connectorType"/> socket connected to it;
    /// <c>Binders[i]</c> and <c>Connectors[i]</c> are one pair.
    /// </summary>
    public (Socket[] Binders, Socket[] Connectors) Pairs(SocketType binderType, SocketType connectorType, int count, bool inproc = false)
    {
        Socket[] binders = New(binderType, count);
        Socket[] connectors = New(connectorType, count);
        for (int i = 0; i < count; i++)
        {
            connectors[i].Connect(Bind(binders[i], inproc));
        }

        return (binders, connectors);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        for (int i = _sockets.Count - 1; i >= 0; i--)
        {
            _sockets[i].Dispose();
        }

        _sockets.Clear();
        _ownContext?.Dispose();
    }

    private static string Bind(Socket socket, bool inproc) => inproc ? Endpoints.BindInproc(socket) : Endpoints.BindTcp(socket);
}
