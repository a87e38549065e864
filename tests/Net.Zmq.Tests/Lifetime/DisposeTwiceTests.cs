using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class DisposeTwiceTests : ContextPerTest
{
    [Fact]
    public void Socket_Dispose_twice_is_harmless()
    {
        var socket = new Socket(Context, SocketType.Pair);

        socket.Dispose();
        socket.Dispose();

        Assert.True(socket.IsDisposed);
        using var another = new Socket(Context, SocketType.Pair); // the context is unaffected
        another.Bind(Endpoints.NewInproc());
    }

    [Fact]
    public void Context_Dispose_twice_is_harmless()
    {
        var context = Sockets.NewContext();
        using (new Socket(context, SocketType.Pair))
        {
        }

        context.Dispose();
        context.Dispose();

        Assert.Throws<ObjectDisposedException>(() => context.GetOption(ContextOption.IoThreads));
    }

    [Fact]
    public void Message_Dispose_twice_is_harmless()
    {
        var small = new Message("small");
        var large = new Message(new byte[10_000]);

        small.Dispose();
        small.Dispose();
        large.Dispose();
        large.Dispose();

        Assert.True(small.IsDisposed);
        Assert.True(large.IsDisposed);
    }

    [Fact]
    public void Poller_Dispose_twice_is_harmless_and_releases_its_sockets()
    {
        using var socket = new Socket(Context, SocketType.Pull);
        var poller = new Poller();
        poller.Add(socket, PollEvents.In);

        poller.Dispose();
        poller.Dispose();

        Assert.Equal(0, poller.Count);
        socket.Bind(Endpoints.NewInproc()); // the socket is still usable on its own
    }

    [Fact]
    public void MultipartMessage_Dispose_twice_is_harmless()
    {
        var message = new MultipartMessage();
        message.Add("a");
        message.Add(new byte[100]);

        message.Dispose();
        message.Dispose();

        Assert.Empty(message);
    }

    [Fact]
    public async Task Socket_Dispose_from_many_threads_at_once_is_harmless()
    {
        var socket = new Socket(Context, SocketType.Dealer);
        socket.Bind(Endpoints.EphemeralTcp);
        const int Threads = 8;
        using var barrier = new Barrier(Threads);

        Task[] disposers = Enumerable.Range(0, Threads).Select(_ => Waits.Run(() =>
        {
            barrier.SignalAndWait(Timeouts.Wait);
            socket.Dispose();
        })).ToArray();

        Assert.True(await Waits.FinishesAsync(Task.WhenAll(disposers)));
        Assert.All(disposers, t => Assert.True(t.IsCompletedSuccessfully, t.Exception?.ToString()));
        Assert.True(socket.IsDisposed);
    }
}
