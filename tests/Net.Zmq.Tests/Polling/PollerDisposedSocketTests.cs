using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

public class PollerDisposedSocketTests : ContextPerTest
{
    [Fact]
    public void Socket_disposed_while_registered_makes_Poll_throw_ObjectDisposedException()
    {
        using Socket kept = Sockets.New(Context, SocketType.Pull);
        Socket disposed = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(kept);
        Endpoints.BindInproc(disposed);
        using var poller = new Poller();
        poller.Add(kept, PollEvents.In);
        int index = poller.Add(disposed, PollEvents.In);

        disposed.Dispose();

        Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
        Assert.Throws<ObjectDisposedException>(() => poller.Poll(Timeouts.WaitMs));

        // Removing the entry makes the poller usable again.
        poller.Remove(index);
        Assert.Equal(0, poller.Poll(0));
    }

    [Fact]
    public void Socket_disposed_while_registered_reports_IsDisposed_and_refuses_further_calls()
    {
        Socket socket = Sockets.New(Context, SocketType.Pair);
        Endpoints.BindInproc(socket);
        using var poller = new Poller();
        poller.Add(socket, PollEvents.In);

        socket.Dispose();

        Assert.True(socket.IsDisposed, "IsDisposed is false after Dispose while a Poller holds the socket");
        Assert.Throws<ObjectDisposedException>(() => socket.Send("after dispose", SendFlags.DontWait));
        Assert.Throws<ObjectDisposedException>(() => socket.Bind(Endpoints.NewInproc()));
    }

    [Fact]
    public void Adding_a_disposed_socket_throws_ObjectDisposedException()
    {
        Socket socket = Sockets.New(Context, SocketType.Pull);
        socket.Dispose();
        using var poller = new Poller();

        Assert.Throws<ObjectDisposedException>(() => poller.Add(socket, PollEvents.In));
        Assert.Equal(0, poller.Count);
    }

    [Fact]
    public void Disposed_poller_refuses_further_use()
    {
        using Socket socket = Sockets.New(Context, SocketType.Pull);
        var poller = new Poller();
        int index = poller.Add(socket, PollEvents.In);
        poller.Dispose();
        poller.Dispose();

        Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
        Assert.Throws<ObjectDisposedException>(() => poller.Add(socket, PollEvents.In));
        Assert.Throws<ObjectDisposedException>(() => poller.IsReadable(index));

        // The poller released the socket: it still works on its own.
        Endpoints.BindInproc(socket);
        Frames.AssertNothingWaiting(socket);
    }
}
