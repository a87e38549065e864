using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

/// <summary>
/// <see cref="SocketOption.UseFd"/> hands libzmq a listening socket for the next bind. libzmq 4.3 aborts the process
/// when that descriptor is not a listening socket, so Net.Zmq refuses such a descriptor when it is set.
/// </summary>
public sealed class UseFdTests : ContextPerTest
{
    [Fact]
    public void A_descriptor_that_is_not_a_listening_socket_is_refused_and_the_option_stays_off()
    {
        using var server = new Socket(Context, SocketType.Pull);
        using var unbound = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        using var file = new FileStream(Path.GetTempFileName(), FileMode.Open, FileAccess.Read, FileShare.None, 1, FileOptions.DeleteOnClose);

        foreach (int fd in new[] { (int)unbound.Handle, (int)file.SafeFileHandle.DangerousGetHandle(), 1_000_000 })
        {
            ArgumentException error = Assert.Throws<ArgumentException>(() => server.SetOption(SocketOption.UseFd, fd));
            Assert.Contains("listening", error.Message, StringComparison.Ordinal);
            Assert.Equal(-1, server.GetOption<int>(SocketOption.UseFd));
        }

        server.SetOption(SocketOption.UseFd, -1); // off is always accepted
        server.Bind("tcp://127.0.0.1:*");         // and the socket binds as usual
        Assert.StartsWith("tcp://127.0.0.1:", server.LastEndpoint, StringComparison.Ordinal);
    }

    [Fact]
    public void A_listening_socket_is_used_by_the_next_bind_and_peers_reach_it()
    {
        using var listener = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen();
        string endpoint = $"tcp://127.0.0.1:{((IPEndPoint)listener.LocalEndPoint!).Port}";

        using Socket server = Sockets.New(Context, SocketType.Pull);
        // libzmq owns the descriptor from the bind on and closes it with the socket, so it gets a duplicate: closing
        // the listener's own descriptor twice would close whatever the process opened under that number meanwhile
        // (another test's libzmq mailbox).
        int descriptor = Dup((int)listener.Handle);
        Assert.True(descriptor >= 0, "dup failed");
        server.SetOption(SocketOption.UseFd, descriptor);
        Assert.Equal(descriptor, server.GetOption<int>(SocketOption.UseFd));
        server.Bind(endpoint);

        using Socket client = Sockets.New(Context, SocketType.Push);
        client.Connect(endpoint);
        client.Send("through the listener");
        Assert.Equal("through the listener", server.RecvString());
    }

    [DllImport("libc", EntryPoint = "dup")]
    private static extern int Dup(int fd);
}
