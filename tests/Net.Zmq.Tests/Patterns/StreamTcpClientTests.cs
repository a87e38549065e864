using System.Net.Sockets;
using System.Text;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class StreamTcpClientTests : ContextPerTest
{
    private static int PortOf(string endpoint) =>
        int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);

    private static byte[] ReadExactly(NetworkStream stream, int count)
    {
        var buffer = new byte[count];
        stream.ReadExactly(buffer);
        return buffer;
    }

    [Fact]
    public void Stream_socket_exchanges_raw_bytes_with_a_tcp_client_framed_by_connection_id()
    {
        using Socket stream = Sockets.New(Context, SocketType.Stream);
        string endpoint = Endpoints.BindTcp(stream);

        using var client = new TcpClient();
        client.Connect("127.0.0.1", PortOf(endpoint));
        client.ReceiveTimeout = Timeouts.WaitMs;
        NetworkStream network = client.GetStream();

        // The STREAM socket announces the new connection as [id, empty].
        using MultipartMessage connected = stream.RecvMultipart();
        Assert.Equal(2, connected.Count);
        byte[] id = connected[0].ToArray();
        Assert.NotEmpty(id);
        Assert.Equal(0, connected[1].Size);

        byte[] request = Encoding.ASCII.GetBytes("GET /hello\r\n");
        network.Write(request);

        // TCP may split the bytes: collect [id, bytes] frames until all of them are here.
        var received = new List<byte>();
        while (received.Count < request.Length)
        {
            using MultipartMessage data = stream.RecvMultipart();
            Assert.Equal(2, data.Count);
            Assert.Equal(id, data[0].ToArray());
            received.AddRange(data[1].ToArray());
        }

        Assert.Equal(request, received);

        byte[] response = Encoding.ASCII.GetBytes("200 OK hello\r\n");
        Assert.True(stream.Send(id, SendFlags.SendMore));
        Assert.True(stream.Send(response));
        Assert.Equal(response, ReadExactly(network, response.Length));
    }

    [Fact]
    public void Stream_socket_tells_two_tcp_clients_apart_by_id()
    {
        using Socket stream = Sockets.New(Context, SocketType.Stream);
        int port = PortOf(Endpoints.BindTcp(stream));

        using var first = new TcpClient();
        first.Connect("127.0.0.1", port);
        first.ReceiveTimeout = Timeouts.WaitMs;
        using MultipartMessage firstConnected = stream.RecvMultipart();
        byte[] firstId = firstConnected[0].ToArray();

        using var second = new TcpClient();
        second.Connect("127.0.0.1", port);
        second.ReceiveTimeout = Timeouts.WaitMs;
        using MultipartMessage secondConnected = stream.RecvMultipart();
        byte[] secondId = secondConnected[0].ToArray();

        Assert.NotEqual(firstId, secondId);

        Assert.True(stream.Send(secondId, SendFlags.SendMore));
        Assert.True(stream.Send("to second"u8));
        Assert.True(stream.Send(firstId, SendFlags.SendMore));
        Assert.True(stream.Send("to first"u8));

        Assert.Equal("to first"u8.ToArray(), ReadExactly(first.GetStream(), "to first".Length));
        Assert.Equal("to second"u8.ToArray(), ReadExactly(second.GetStream(), "to second".Length));
    }

    [Fact]
    public void Stream_socket_reports_a_closed_tcp_client_as_id_and_empty_frame()
    {
        using Socket stream = Sockets.New(Context, SocketType.Stream);
        int port = PortOf(Endpoints.BindTcp(stream));

        byte[] id;
        using (var client = new TcpClient())
        {
            client.Connect("127.0.0.1", port);
            using MultipartMessage connected = stream.RecvMultipart();
            id = connected[0].ToArray();
            client.GetStream().Write("bye"u8);
        }

        using MultipartMessage data = stream.RecvMultipart();
        Assert.Equal(id, data[0].ToArray());
        Assert.Equal("bye", data[1].ToString());

        using MultipartMessage disconnected = stream.RecvMultipart();
        Assert.Equal(2, disconnected.Count);
        Assert.Equal(id, disconnected[0].ToArray());
        Assert.Equal(0, disconnected[1].Size);
    }
}
