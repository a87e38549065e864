namespace Net.Zmq.Tests.Support;

/// <summary>
/// A bound socket and two sockets connected to it over loopback tcp, all three in the test's context and with timeouts:
/// for what a socket does with more than one peer (fair queueing, a reply routed back to the peer that asked).
/// Disposing the fan disposes the three sockets, not the context.
/// </summary>
/// <example>
/// <code>
/// using var fan = SocketFan.Open(Context, SocketType.Gather, SocketType.Scatter);
/// var (gather, left, right) = fan;
/// </code>
/// </example>
internal sealed class SocketFan(Socket binder, Socket first, Socket second) : IDisposable
{
    /// <summary>The socket that binds.</summary>
    public Socket Binder { get; } = binder;

    /// <summary>The first socket connected to <see cref="Binder"/>.</summary>
    public Socket First { get; } = first;

    /// <summary>The second socket connected to <see cref="Binder"/>, after <see cref="First"/>.</summary>
    public Socket Second { get; } = second;

    /// <summary>Binds a <paramref name="binderType"/> socket and connects two <paramref name="connectorType"/> sockets to it, in that order.</summary>
    public static SocketFan Open(Context context, SocketType binderType, SocketType connectorType)
    {
        Socket binder = Sockets.New(context, binderType);
        Socket first = Sockets.New(context, connectorType);
        Socket second = Sockets.New(context, connectorType);
        string endpoint = Endpoints.BindTcp(binder);
        first.Connect(endpoint);
        second.Connect(endpoint);
        return new SocketFan(binder, first, second);
    }

    /// <summary>Lets a test name the three sockets by their role: <c>var (server, first, second) = fan;</c>.</summary>
    public void Deconstruct(out Socket binder, out Socket first, out Socket second)
    {
        binder = Binder;
        first = First;
        second = Second;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Second.Dispose();
        First.Dispose();
        Binder.Dispose();
    }
}
