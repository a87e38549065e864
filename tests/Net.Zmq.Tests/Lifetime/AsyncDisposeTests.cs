using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

/// <summary><c>await using</c> on sockets and contexts, and a DisposeAsync of a context that does not block its caller.</summary>
public class AsyncDisposeTests
{
    [Fact]
    public async Task Await_using_disposes_the_socket_and_the_context()
    {
        Context kept;
        Socket keptSocket;
        await using (var context = Sockets.NewContext())
        {
            kept = context;
            await using var socket = new Socket(context, SocketType.Pair);
            keptSocket = socket;
            Endpoints.BindInproc(socket);
        }

        Assert.True(keptSocket.IsDisposed);
        Assert.True(kept.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => new Socket(kept, SocketType.Pair));
        await kept.DisposeAsync(); // again: nothing
        await keptSocket.DisposeAsync();
    }

    [Fact]
    public async Task Context_DisposeAsync_returns_to_its_caller_at_once_and_completes_when_the_linger_has_run_out()
    {
        var context = Sockets.NewContext();
        var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, TimeSpan.FromMilliseconds(700));
        push.Connect(Endpoints.UnusedTcp());
        Assert.True(push.Send("undeliverable", SendFlags.DontWait)); // held for the linger: nobody listens there
        push.Dispose();

        var stopwatch = Stopwatch.StartNew();
        ValueTask disposing = context.DisposeAsync();
        TimeSpan returnedAfter = stopwatch.Elapsed;

        Assert.True(returnedAfter < TimeSpan.FromMilliseconds(300), $"DisposeAsync blocked its caller for {returnedAfter}");
        Assert.False(disposing.IsCompleted, "DisposeAsync completed before libzmq's termination waited for the linger");
        Assert.True(context.IsDisposed);

        Assert.True(await Waits.FinishesAsync(disposing.AsTask()), "DisposeAsync never completed");
        Assert.True(stopwatch.Elapsed >= TimeSpan.FromMilliseconds(600), $"DisposeAsync completed after only {stopwatch.Elapsed}");
    }

    [Fact]
    public async Task Context_DisposeAsync_with_an_open_socket_completes_at_once_and_the_socket_sees_the_shutdown()
    {
        var context = Sockets.NewContext();
        var pull = Sockets.New(context, SocketType.Pull);
        Endpoints.BindInproc(pull);

        await context.DisposeAsync();

        Assert.Throws<ContextTerminatedException>(() => pull.Recv(new byte[4]));
        pull.Dispose();
    }
}
