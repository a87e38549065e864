namespace Net.Zmq.Benchmarks;

/// <summary>
/// Two Net.Zmq ROUTER sockets over tcp://127.0.0.1 with HWM 0: <see cref="Sender"/> connects to <see cref="Receiver"/>,
/// and the pair is returned only once the sender can route to the receiver (the handshake is done).
/// Every message is two frames: the receiver's routing id, then the payload.
/// </summary>
internal sealed class ZmqRouterPair : IDisposable
{
    /// <summary>The receiver's routing id, the first frame of every message sent.</summary>
    public static ReadOnlySpan<byte> ReceiverId => "R"u8;

    public ZmqRouterPair()
    {
        Context = new Context();
        Receiver = Create(Context, "R"u8);
        Sender = Create(Context, "S"u8);
        Receiver.Bind("tcp://127.0.0.1:*");
        Sender.SetOption(SocketOption.RouterMandatory, true);
        Sender.Connect(Receiver.LastEndpoint);
        WaitRoutable(Sender, ReceiverId);
        Sender.Send("ready"u8);
        Span<byte> frame = stackalloc byte[16];
        Receiver.Recv(frame);
        Receiver.Recv(frame);
    }

    public Context Context { get; }

    public Socket Sender { get; }

    public Socket Receiver { get; }

    /// <summary>A ROUTER with HWM 0, linger 0 and the given routing id.</summary>
    public static Socket Create(Context context, ReadOnlySpan<byte> routingId)
    {
        var socket = new Socket(context, SocketType.Router);
        socket.SetOption(SocketOption.SendHighWatermark, 0);
        socket.SetOption(SocketOption.ReceiveHighWatermark, 0);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.RoutingId, routingId);
        return socket;
    }

    /// <summary>
    /// Sends the routing-id frame of a message to <paramref name="peer"/> as soon as the ROUTER (with RouterMandatory)
    /// can route to it. The caller sends the rest of the message.
    /// </summary>
    public static void WaitRoutable(Socket router, ReadOnlySpan<byte> peer)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (true)
        {
            try
            {
                router.Send(peer, SendFlags.SendMore);
                return;
            }
            catch (ZmqException e) when (e.ErrorNumber == ZmqError.EHOSTUNREACH && DateTime.UtcNow < deadline)
            {
                Thread.Sleep(1);
            }
        }
    }

    public void Dispose()
    {
        Sender.Dispose();
        Receiver.Dispose();
        Context.Dispose();
    }
}
