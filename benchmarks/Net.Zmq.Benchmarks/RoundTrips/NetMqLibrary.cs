using NetMQ;
using NetMQ.Sockets;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// NetMQ behind <see cref="IRoundTripLibrary"/>. Frames go through one reused Msg per direction (pooled buffers), NetMQ's
/// allocation-free path, so neither library is charged for a convenience API the other does not use.
/// </summary>
internal sealed class NetMqLibrary : IRoundTripLibrary
{
    public string Name => "NetMQ";

    public IRoundTripSocket Create(SocketKind kind, ReadOnlySpan<byte> routingId = default)
    {
        NetMQSocket socket = kind switch
        {
            SocketKind.Req => new RequestSocket(),
            SocketKind.Rep => new ResponseSocket(),
            SocketKind.Dealer => new DealerSocket(),
            _ => new RouterSocket(),
        };
        socket.Options.SendHighWatermark = 0;
        socket.Options.ReceiveHighWatermark = 0;
        socket.Options.Linger = TimeSpan.Zero;
        if (!routingId.IsEmpty)
        {
            socket.Options.Identity = routingId.ToArray();
        }

        if (kind == SocketKind.Router)
        {
            socket.Options.RouterMandatory = true;
        }

        return new NetMqSocket(socket);
    }

    public void Dispose() => NetMQConfig.Cleanup(block: false);

    private sealed class NetMqSocket : IRoundTripSocket
    {
        private readonly NetMQSocket _socket;
        private Msg _received;
        private Msg _sent;

        public NetMqSocket(NetMQSocket socket)
        {
            _socket = socket;
            _received.InitEmpty();
            _sent.InitEmpty();
        }

        public string BindLocal() => $"tcp://127.0.0.1:{_socket.BindRandomPort("tcp://127.0.0.1")}";

        public void Connect(string endpoint) => _socket.Connect(endpoint);

        public void Send(ReadOnlySpan<byte> frame, bool more)
        {
            _sent.InitPool(frame.Length);
            frame.CopyTo(_sent.Slice());
            _socket.Send(ref _sent, more);
        }

        public int Receive(Span<byte> buffer)
        {
            _socket.Receive(ref _received);
            _received.Slice().CopyTo(buffer);
            return _received.Size;
        }

        public void SendRoutingId(ReadOnlySpan<byte> peer)
        {
            var deadline = DateTime.UtcNow.AddSeconds(10);
            while (true)
            {
                try
                {
                    Send(peer, more: true);
                    return;
                }
                catch (HostUnreachableException) when (DateTime.UtcNow < deadline)
                {
                    Thread.Sleep(1);
                }
            }
        }

        public void Dispose()
        {
            _received.Close();
            _socket.Dispose();
        }
    }
}
