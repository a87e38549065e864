using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Sockets in an event loop: their handlers run on the loop thread when they are ready, and they come and go at any time.</summary>
public sealed class EventLoopReadinessTests : LoopPerTest
{
    [Fact]
    public async Task The_receive_handler_gets_every_message_on_the_loop_thread()
    {
        int received = 0;
        bool onLoopThread = true;
        Loop.Add(Pull, socket =>
        {
            onLoopThread &= Loop.IsOnLoopThread;
            while (socket.TryRecvString(out string? _))
            {
                if (++received == 100)
                {
                    Loop.Stop();
                }
            }
        });

        Task run = Loop.RunAsync();
        for (int i = 0; i < 100; i++)
        {
            Push.Send($"message {i}");
        }

        await LoopRuns.EndsAsync(run);
        Assert.Equal(100, received);
        Assert.True(onLoopThread);
    }

    [Fact]
    public async Task The_send_handler_runs_while_the_socket_can_send_and_stops_when_cleared()
    {
        int sent = 0;
        Loop.Add(Push, receiveReady: null, sendReady: socket =>
        {
            socket.Send($"frame {sent}");
            if (++sent == 10)
            {
                Loop.Update(socket, receiveReady: null, sendReady: null); // nothing more to send: stop watching
                Loop.Post(Loop.Stop);
            }
        });

        await LoopRuns.EndsAsync(Loop.RunAsync());
        Assert.Equal(10, sent);
        for (int i = 0; i < 10; i++)
        {
            Assert.Equal($"frame {i}", Pull.RecvString());
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
        bool secondCalled = false;
        Loop.Add(first, socket =>
        {
            socket.RecvString();
            Assert.True(Loop.Remove(second));
            Loop.Post(Loop.Stop);
        });
        Loop.Add(second, _ => secondCalled = true);

        await LoopRuns.EndsAsync(Loop.RunAsync());
        Assert.False(secondCalled);
        Assert.Equal("to second", second.RecvString()); // released: usable by this thread again
    }

    [Fact]
    public async Task Remove_from_another_thread_returns_once_the_loop_has_let_go()
    {
        int handled = 0;
        Loop.Add(Pull, socket =>
        {
            socket.RecvString();
            handled++;
        });
        Task run = Loop.RunAsync();

        Assert.True(Loop.Remove(Pull));
        Assert.False(Loop.Contains(Pull));
        Assert.False(Loop.Remove(Pull));
        Push.Send("after removal");

        // The message comes to this thread, and the socket can even go async now that no loop holds it.
        byte[] buffer = new byte[64];
        int size = await Pull.RecvAsync(buffer).AsTask().WaitAsync(Timeouts.Wait);
        Assert.Equal("after removal".Length, size);
        Loop.Stop();
        await LoopRuns.EndsAsync(run);
        Assert.Equal(0, handled);
    }

    [Fact]
    public async Task A_socket_added_from_another_thread_while_the_loop_waits_is_served()
    {
        Task run = Loop.RunAsync();
        string? got = null;

        Loop.Add(Pull, socket =>
        {
            got = socket.RecvString();
            Loop.Stop();
        });
        Push.Send("hello");

        await LoopRuns.EndsAsync(run);
        Assert.Equal("hello", got);
    }

    [Fact]
    public async Task A_socket_disposed_while_registered_leaves_the_loop()
    {
        Loop.Add(Pull, socket => socket.Dispose()); // disposed without Remove
        int ticks = 0;
        Loop.AddTimer(TimeSpan.FromMilliseconds(5), _ =>
        {
            if (Loop.SocketCount == 0 && ++ticks == 3)
            {
                Loop.Stop(); // the loop kept running after the socket went away
            }
        });
        Task run = Loop.RunAsync();
        Push.Send("x");

        await LoopRuns.EndsAsync(run);
        Assert.True(Pull.IsDisposed);
        Assert.Equal(0, Loop.SocketCount);
    }

    [Fact]
    public async Task A_socket_used_asynchronously_or_already_added_is_refused()
    {
        await Push.SendAsync("async");

        Assert.Throws<InvalidOperationException>(() => Loop.Add(Push, _ => { }));
        Loop.Add(Pull, _ => { });
        Assert.Throws<InvalidOperationException>(() => Loop.Add(Pull, _ => { }));
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await Pull.RecvAsync(new byte[8]));
        Assert.Throws<ArgumentException>(() => Loop.Add(Push, null, null));
    }

    [Fact]
    public async Task Disposing_the_loop_gives_its_sockets_back()
    {
        var loop = new Loop();
        loop.Add(Pull, _ => { });
        loop.Dispose();

        Push.Send("free");
        Assert.Equal("free", await Pull.RecvStringAsync().AsTask().WaitAsync(Timeouts.Wait));
        Assert.Throws<ObjectDisposedException>(() => loop.Add(Pull, _ => { }));
        Assert.Throws<ObjectDisposedException>(() => loop.Run());
    }

    private static int WaitReadable(Socket socket)
    {
        using var poller = new Poller();
        poller.Add(socket, PollEvents.In);
        return poller.Poll(Timeouts.WaitMs);
    }
}
