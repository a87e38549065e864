using System.Buffers.Binary;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

/// <summary>
/// Two ROUTER sockets over TCP on 127.0.0.1, handshaken so the sender can address the receiver by routing id.
/// The sender uses RouterMandatory, so a full pipe blocks it instead of dropping messages.
/// </summary>
internal sealed class RouterToRouterLink : IDisposable
{
    public const int MessageCount = 10_000;
    public const int PayloadSize = 48;

    private static readonly byte[] s_senderId = "sender"u8.ToArray();
    private static readonly byte[] s_receiverId = "receiver"u8.ToArray();

    private readonly Context _context;

    public RouterToRouterLink()
    {
        _context = Sockets.NewContext();
        Receiver = Sockets.New(_context, SocketType.Router);
        Sender = Sockets.New(_context, SocketType.Router);
        Receiver.SetOption(SocketOption.RoutingId, s_receiverId);
        Sender.SetOption(SocketOption.RoutingId, s_senderId);
        Sender.SetOption(SocketOption.ProbeRouter, true);
        Sender.SetOption(SocketOption.RouterMandatory, true);
        Sender.Connect(Endpoints.BindTcp(Receiver));
        (byte[] senderId, byte[] receiverId) = Connections.CompleteRouterHandshake(Receiver, Sender);
        Assert.Equal(s_senderId, senderId);
        Assert.Equal(s_receiverId, receiverId);
    }

    public Socket Receiver { get; }

    public Socket Sender { get; }

    /// <summary>Sends <see cref="MessageCount"/> messages [receiver id, payload i] from the sender.</summary>
    public void SendAll()
    {
        Span<byte> payload = stackalloc byte[PayloadSize];
        for (int i = 0; i < MessageCount; i++)
        {
            Fill(payload, i);
            Sender.Send(s_receiverId, SendFlags.SendMore);
            Sender.Send(payload);
        }
    }

    /// <summary>
    /// Runs <paramref name="receiveLoop"/> on a background thread, given a buffer for the routing id (32 bytes) and one
    /// for the payload (128 bytes), while this thread sends every message; fails when the loop does not finish in time.
    /// A failure of the loop is reported before a send timeout it may have caused.
    /// </summary>
    public void Run(Action<byte[], byte[]> receiveLoop)
    {
        BackgroundWork receiver = BackgroundWork.Start("receive loop", () => receiveLoop(new byte[32], new byte[128]));
        ZmqException? sendFailure = null;
        try
        {
            SendAll();
        }
        catch (ZmqException ex)
        {
            sendFailure = ex;
        }

        receiver.Join(TimeSpan.FromSeconds(10));
        Assert.Null(sendFailure);
    }

    /// <summary>Checks one received message: the routing id frame and the payload frame with its sequence number.</summary>
    public static void Check(int idSize, ReadOnlySpan<byte> idBuffer, int payloadSize, ReadOnlySpan<byte> payloadBuffer, int expected)
    {
        if (idSize != s_senderId.Length || !idBuffer[..idSize].SequenceEqual(s_senderId))
        {
            Assert.Fail($"message {expected}: routing id frame of {idSize} bytes is not 'sender'");
        }

        if (payloadSize != PayloadSize)
        {
            Assert.Fail($"message {expected}: payload of {payloadSize} bytes, expected {PayloadSize}");
        }

        Span<byte> want = stackalloc byte[PayloadSize];
        Fill(want, expected);
        if (!payloadBuffer[..PayloadSize].SequenceEqual(want))
        {
            Assert.Fail($"message {expected}: got payload #{BinaryPrimitives.ReadInt32LittleEndian(payloadBuffer)} or corrupted bytes");
        }
    }

    public void Dispose()
    {
        Sender.Dispose();
        Receiver.Dispose();
        _context.Dispose();
    }

    private static void Fill(Span<byte> payload, int index)
    {
        BinaryPrimitives.WriteInt32LittleEndian(payload, index);
        for (int k = 4; k < payload.Length; k++)
        {
            payload[k] = (byte)(index + k);
        }
    }
}
