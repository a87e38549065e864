namespace Net.Zmq.Benchmarks;

/// <summary>Net.Zmq behind <see cref="IRoundTripLibrary"/>.</summary>
internal sealed class ZmqLibrary : IRoundTripLibrary
{
    private readonly Context _context = new();

    public string Name => "Net.Zmq";

    public IRoundTripSocket Create(SocketKind kind, ReadOnlySpan<byte> routingId = default)
    {
        var socket = new Socket(_context, kind switch
        {
            SocketKind.Req => SocketType.Req,
            SocketKind.Rep => SocketType.Rep,
            SocketKind.Dealer => SocketType.Dealer,
            _ => SocketType.Router,
        });
        socket.SetOption(SocketOption.SendHighWatermark, 0);
        socket.SetOption(SocketOption.ReceiveHighWatermark, 0);
        socket.SetOption(SocketOption.Linger, 0);
        if (!routingId.IsEmpty)
        {
            socket.SetOption(SocketOption.RoutingId, routingId);
        }

        if (kind == SocketKind.Router)
        {
            socket.SetOption(SocketOption.RouterMandatory, true);
        }

        return new ZmqSocket(socket);
    }

    public void Dispose() => _context.Dispose();

    private sealed class ZmqSocket(Socket socket) : IRoundTripSocket
    {
        public string BindLocal()
        {
            socket.Bind("tcp://127.0.0.1:*");
            return socket.LastEndpoint;
        }

        public void Connect(string endpoint) => socket.Connect(endpoint);

        public void Send(ReadOnlySpan<byte> frame, bool more) => socket.Send(frame, more ? SendFlags.SendMore : SendFlags.None);

        public int Receive(Span<byte> buffer) => socket.Recv(buffer);

        public void SendRoutingId(ReadOnlySpan<byte> peer) => ZmqRouterPair.WaitRoutable(socket, peer);

        public void Dispose() => socket.Dispose();
    }
}
