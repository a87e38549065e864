using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

/// <summary>Dispose takes effect at once even while something else still holds the native socket.</summary>
public sealed class DisposeWhileHeldTests : ContextPerTest
{
    [Fact]
    public void A_socket_registered_in_a_poller_is_disposed_at_once()
    {
        var socket = new Socket(Context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(socket, PollEvents.In);

        socket.Dispose();

        Assert.True(socket.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => socket.LastEndpoint);
        Assert.Throws<ObjectDisposedException>(() => socket.Send("x"));
        var ex = Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
        Assert.Contains("index 0", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Removing_a_disposed_socket_from_the_poller_lets_polling_go_on()
    {
        var socket = new Socket(Context, SocketType.Pull);
        using var poller = new Poller(1);
        int index = poller.Add(socket, PollEvents.In);
        socket.Dispose();

        poller.Remove(index);

        Assert.Equal(0, poller.Poll(0));
    }

    [Fact]
    public void A_disposed_context_refuses_new_sockets()
    {
        var context = Sockets.NewContext();
        using var open = new Socket(context, SocketType.Pair); // holds the context handle

        context.Dispose();

        Assert.True(context.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Pair));
        Assert.Throws<ObjectDisposedException>(() => context.GetOption(ContextOption.IoThreads));
        Assert.Throws<ContextTerminatedException>(() => open.Recv());
    }
}
