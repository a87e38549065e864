using System.Net;
using System.Net.Sockets;
using Net.Zmq.Tests.Support;
using NetSocket = System.Net.Sockets.Socket;
using NetSocketType = System.Net.Sockets.SocketType;

namespace Net.Zmq.Tests.Polling;

public class PollerRawSocketTests
{
    private static NetSocket BoundUdp()
    {
        var udp = new NetSocket(AddressFamily.InterNetwork, NetSocketType.Dgram, ProtocolType.Udp);
        udp.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return udp;
    }

    [Fact]
    public void Udp_socket_that_received_a_datagram_is_readable_and_an_idle_one_is_not()
    {
        using NetSocket receiver = BoundUdp();
        using NetSocket idle = BoundUdp();
        using NetSocket sender = BoundUdp();
        using var poller = new Poller();
        int receiverIndex = poller.Add(receiver, PollEvents.In);
        int idleIndex = poller.Add(idle, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));

        sender.SendTo("datagram"u8.ToArray(), receiver.LocalEndPoint!);

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(receiverIndex));
        Assert.False(poller.IsReadable(idleIndex));
        Assert.False(poller.HasError(receiverIndex));

        var buffer = new byte[64];
        int size = receiver.Receive(buffer);
        Assert.Equal("datagram"u8.ToArray(), buffer[..size]);
        Assert.Equal(0, poller.Poll(0));
    }

    [Fact]
    public void Raw_file_descriptor_entry_reports_readiness_like_the_socket_it_names()
    {
        using NetSocket receiver = BoundUdp();
        using NetSocket sender = BoundUdp();
        using var poller = new Poller();
        int readIndex = poller.Add(receiver.SafeHandle.DangerousGetHandle(), PollEvents.In);
        int writeIndex = poller.Add(sender.SafeHandle.DangerousGetHandle(), PollEvents.Out);

        // An idle UDP socket can always send.
        Assert.Equal(1, poller.Poll(0));
        Assert.True(poller.IsWritable(writeIndex));
        Assert.False(poller.IsReadable(readIndex));

        sender.SendTo([1, 2, 3], receiver.LocalEndPoint!);

        Assert.Equal(2, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(readIndex));
        Assert.False(poller.IsWritable(readIndex));
    }

    [Fact]
    public void Zmq_sockets_and_os_sockets_are_polled_together()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        using var poller = new Poller();
        int zmqIndex = poller.Add(pull, PollEvents.In);
        int udpIndex = poller.Add(udp, PollEvents.In);

        sender.SendTo([42], udp.LocalEndPoint!);
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(udpIndex));
        Assert.False(poller.IsReadable(zmqIndex));
        udp.Receive(new byte[8]);

        Assert.True(push.Send("zmq"));
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(zmqIndex));
        Assert.False(poller.IsReadable(udpIndex));
    }

    [Fact]
    public void Tcp_socket_reset_by_its_peer_reports_an_error()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var client = new NetSocket(AddressFamily.InterNetwork, NetSocketType.Stream, ProtocolType.Tcp);
        client.Connect(listener.LocalEndpoint);
        using (NetSocket accepted = listener.AcceptSocket())
        {
            accepted.LingerState = new LingerOption(true, 0); // close with RST
        }

        using var poller = new Poller();
        int index = poller.Add(client, PollEvents.In | PollEvents.Error);

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.HasError(index));
    }

    [Fact]
    public void Negative_file_descriptor_is_rejected()
    {
        using var poller = new Poller();
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.Add(-1, PollEvents.In));
        Assert.Throws<ArgumentNullException>(() => poller.Add((NetSocket)null!, PollEvents.In));
    }
}
