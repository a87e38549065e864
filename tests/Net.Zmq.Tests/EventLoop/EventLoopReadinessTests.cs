using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Sockets in an event loop: their handlers run on the loop thread when they are ready, and they come and go at any time.</summary>
public sealed class EventLoopReadinessTests : ContextPerTest
{
    [Fact]
    public async Task The_receive_handler_gets_every_message_on_the_loop_thread()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        int received = 0;
        bool onLoopThread = true;
        loop.Add(pull, socket =>
        {
            onLoopThread &= loop.IsOnLoopThread;
            while (socket.TryRecvString(out string? _))
            {
                if (++received == 100)
                {
                    loop.Stop();
                }
            }
        });

        Task run = loop.RunAsync();
        for (int i = 0; i < 100; i++)
        {
            push.Send($"message {i}");
        }

        await LoopRuns.EndsAsync(run);
        Assert.Equal(100, received);
        Assert.True(onLoopThread);
    }

    [Fact]
    public async Task The_send_handler_runs_while_the_socket_can_send_and_stops_when_cleared()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        int sent = 0;
        loop.Add(push, receiveReady: null, sendReady: socket =>
        {
            socket.Send($"frame {sent}");
            if (++sent == 10)
            {
                loop.Update(socket, receiveReady: null, sendReady: null); // nothing more to send: stop watching
                loop.Post(loop.Stop);
            }
        });

        await LoopRuns.EndsAsync(loop.RunAsync());
        Assert.Equal(10, sent);
        for (int i = 0; i < 10; i++)
        {
            Assert.Equal($"frame {i}", pull.RecvString());
        }
    }

    [Fact]
    public async Task A_socket_removed_by_an_earlier_handler_of_the_same_pass_is_not_called()
    {
        using var first = Sockets.New(Context, SocketType.Pull);
        using var second = Sockets.New(Context, SocketType.Pull);
        using var feeder = Sockets.New(Context, SocketType.Push);
        using var feeder2 = Sockets.New(Context, SocketType.Push);
        feeder.Connect(Endpoints.BindInproc(first));
        feeder2.Connect(Endpoints.BindInproc(second));
        feeder.Send("to first");
        feeder2.Send("to second");

        // Both are readable before the loop's first poll, so both are in its first pass, first before second.
        Assert.Equal(1, WaitReadable(first));
        Assert.Equal(1, WaitReadable(second));
        using var loop = new Loop();
        bool secondCalled = false;
        loop.Add(first, socket =>
        {
            socket.RecvString();
            Assert.True(loop.Remove(second));
            loop.Post(loop.Stop);
        });
        loop.Add(second, _ => secondCalled = true);

        await LoopRuns.EndsAsync(loop.RunAsync());
        Assert.False(secondCalled);
        Assert.Equal("to second", second.RecvString()); // released: usable by this thread again
    }

    [Fact]
    public async Task Remove_from_another_thread_returns_once_the_loop_has_let_go()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        int handled = 0;
        loop.Add(pull, socket =>
        {
            socket.RecvString();
            handled++;
        });
        Task run = loop.RunAsync();

        Assert.True(loop.Remove(pull));
        Assert.False(loop.Contains(pull));
        Assert.False(loop.Remove(pull));
        push.Send("after removal");

        // The message comes to this thread, and the socket can even go async now that no loop holds it.
        byte[] buffer = new byte[64];
        int size = await pull.RecvAsync(buffer).AsTask().WaitAsync(Timeouts.Wait);
        Assert.Equal("after removal".Length, size);
        loop.Stop();
        await LoopRuns.EndsAsync(run);
        Assert.Equal(0, handled);
    }

    [Fact]
    public async Task A_socket_added_from_another_thread_while_the_loop_waits_is_served()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        Task run = loop.RunAsync();
        string? got = null;

        loop.Add(pull, socket =>
        {
            got = socket.RecvString();
            loop.Stop();
        });
        push.Send("hello");

        await LoopRuns.EndsAsync(run);
        Assert.Equal("hello", got);
    }

    [Fact]
    public async Task A_socket_disposed_while_registered_leaves_the_loop()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        loop.Add(pull, socket => socket.Dispose()); // disposed without Remove
        int ticks = 0;
        loop.AddTimer(TimeSpan.FromMilliseconds(5), _ =>
        {
            if (loop.SocketCount == 0 && ++ticks == 3)
            {
                loop.Stop(); // the loop kept running after the socket went away
            }
        });
        Task run = loop.RunAsync();
        push.Send("x");

        await LoopRuns.EndsAsync(run);
        Assert.True(pull.IsDisposed);
        Assert.Equal(0, loop.SocketCount);
    }

    [Fact]
    public async Task A_socket_used_asynchronously_or_already_added_is_refused()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        await push.SendAsync("async");
        using var loop = new Loop();

        Assert.Throws<InvalidOperationException>(() => loop.Add(push, _ => { }));
        loop.Add(pull, _ => { });
        Assert.Throws<InvalidOperationException>(() => loop.Add(pull, _ => { }));
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await pull.RecvAsync(new byte[8]));
        Assert.Throws<ArgumentException>(() => loop.Add(push, null, null));
    }

    [Fact]
    public async Task Disposing_the_loop_gives_its_sockets_back()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        var loop = new Loop();
        loop.Add(pull, _ => { });
        loop.Dispose();

        push.Send("free");
        Assert.Equal("free", await pull.RecvStringAsync().AsTask().WaitAsync(Timeouts.Wait));
        Assert.Throws<ObjectDisposedException>(() => loop.Add(pull, _ => { }));
        Assert.Throws<ObjectDisposedException>(() => loop.Run());
    }

    private static int WaitReadable(Socket socket)
    {
        using var poller = new Poller();
        poller.Add(socket, PollEvents.In);
        return poller.Poll(Timeouts.WaitMs);
    }
}
