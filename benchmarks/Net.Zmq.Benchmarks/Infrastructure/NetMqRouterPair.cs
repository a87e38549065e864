using NetMQ;
using NetMQ.Sockets;

namespace Net.Zmq.Benchmarks;

/// <summary>The NetMQ counterpart of <see cref="ZmqRouterPair"/>: two ROUTERs, HWM 0, handshake done before use.</summary>
internal sealed class NetMqRouterPair : IDisposable
{
    public static readonly byte[] ReceiverId = "R"u8.ToArray();

    public NetMqRouterPair()
    {
        Receiver = Create("R"u8.ToArray());
        Sender = Create("S"u8.ToArray());
        int port = Receiver.BindRandomPort("tcp://127.0.0.1");
        Sender.Options.RouterMandatory = true;
        Sender.Connect($"tcp://127.0.0.1:{port}");
        WaitRoutable(Sender, ReceiverId);
        Sender.SendFrame("ready"u8.ToArray());
        Receiver.ReceiveMultipartBytes();
    }

    public RouterSocket Sender { get; }

    public RouterSocket Receiver { get; }

    /// <summary>A ROUTER with HWM 0, linger 0 and the given routing id.</summary>
    public static RouterSocket Create(byte[] routingId)
    {
        var socket = new RouterSocket();
        socket.Options.SendHighWatermark = 0;
        socket.Options.ReceiveHighWatermark = 0;
        socket.Options.Linger = TimeSpan.Zero;
        socket.Options.Identity = routingId;
        return socket;
    }

    /// <summary>Sends the routing-id frame of a message to <paramref name="peer"/> once the ROUTER can route to it.</summary>
    public static void WaitRoutable(RouterSocket router, byte[] peer)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (true)
        {
            try
            {
                router.SendMoreFrame(peer);
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
        Sender.Dispose();
        Receiver.Dispose();
    }
}
