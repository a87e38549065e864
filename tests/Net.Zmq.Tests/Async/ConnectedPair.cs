using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>A context of its own and two connected sockets, disposed together.</summary>
internal sealed class ConnectedPair : IDisposable
{
    private ConnectedPair(Context context, Socket binder, Socket connector)
    {
        Context = context;
        Binder = binder;
        Connector = connector;
    }

    public Context Context { get; }

    /// <summary>The socket that binds.</summary>
    public Socket Binder { get; }

    /// <summary>The socket that connects to <see cref="Binder"/>.</summary>
    public Socket Connector { get; }

    /// <summary>Binds a <paramref name="binderType"/> socket over tcp (or a fresh inproc name) and connects a <paramref name="connectorType"/> one to it.</summary>
    public static ConnectedPair Open(SocketType binderType, SocketType connectorType, bool inproc = false)
    {
        Context context = SocketKit.NewContext();
        var binder = new Socket(context, binderType);
        var connector = new Socket(context, connectorType);
        connector.Connect(inproc ? SocketKit.BindInproc(binder) : SocketKit.BindTcp(binder));
        return new ConnectedPair(context, binder, connector);
    }

    public void Dispose()
    {
        Connector.Dispose();
        Binder.Dispose();
        Context.Dispose();
    }
}
