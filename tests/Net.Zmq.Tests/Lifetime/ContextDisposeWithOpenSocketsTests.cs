using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class ContextDisposeWithOpenSocketsTests
{
    private static readonly TimeSpan s_bound = TimeSpan.FromSeconds(2);

    [Fact]
    public void Context_Dispose_with_open_sockets_and_unsent_messages_returns_promptly()
    {
        var context = new Context();
        var idle = new Socket(context, SocketType.Pair);
        idle.Bind(Endpoints.NewInproc());
        var stuck = new Socket(context, SocketType.Push);
        stuck.Connect(Endpoints.UnusedTcp());
        for (int i = 0; i < 10; i++)
        {
            Assert.True(stuck.Send(new byte[1000], SendFlags.DontWait)); // queued towards an endpoint nobody listens on
        }

        var stopwatch = Stopwatch.StartNew();
        context.Dispose();
        stopwatch.Stop();

        Assert.True(stopwatch.Elapsed < s_bound, $"Context.Dispose took {stopwatch.Elapsed}");
        // Calls that must reach libzmq's command queue see the termination (a send that libzmq can queue at once
        // may still succeed for a moment: libzmq throttles command processing on that path).
        AssertTerminatedOrDisposed(() => idle.Send("x"));
        AssertTerminatedOrDisposed(() => idle.Recv(new byte[4]));
        AssertTerminatedOrDisposed(() => stuck.Connect(Endpoints.NewInproc()));
        AssertTerminatedOrDisposed(() => stuck.Bind(Endpoints.NewInproc()));

        stopwatch.Restart();
        idle.Dispose();
        stuck.Dispose();
        Assert.True(stopwatch.Elapsed < s_bound, $"disposing the sockets took {stopwatch.Elapsed}");
    }

    [Fact]
    public void Context_Dispose_after_its_sockets_waits_no_longer_than_their_linger()
    {
        var context = new Context { DefaultLinger = TimeSpan.FromMilliseconds(200) };
        using (var stuck = new Socket(context, SocketType.Push))
        {
            stuck.Connect(Endpoints.UnusedTcp());
            Assert.True(stuck.Send("unsent", SendFlags.DontWait));
        }

        var stopwatch = Stopwatch.StartNew();
        context.Dispose();

        Assert.True(stopwatch.Elapsed < s_bound, $"Context.Dispose took {stopwatch.Elapsed}");
    }

    [Fact]
    public async Task Context_Dispose_returns_even_when_a_socket_was_given_an_infinite_linger_and_holds_unsent_messages()
    {
        var context = new Context();
        using (var stuck = new Socket(context, SocketType.Push))
        {
            stuck.SetOption(SocketOption.Linger, Timeout.InfiniteTimeSpan); // libzmq would wait for these forever
            stuck.Connect(Endpoints.UnusedTcp());
            Assert.True(stuck.Send("undeliverable", SendFlags.DontWait));
        }

        var stopwatch = Stopwatch.StartNew();
        bool returned = await Waits.FinishesAsync(Waits.Run(context.Dispose), TimeSpan.FromSeconds(30));

        Assert.True(returned, "Context.Dispose did not return");
        Assert.True(stopwatch.Elapsed >= TimeSpan.FromSeconds(9), $"Context.Dispose gave up on termination after only {stopwatch.Elapsed}");
        Assert.True(context.IsDisposed);
    }

    [Fact]
    public void Context_Dispose_with_many_open_sockets_returns_promptly()
    {
        var context = new Context();
        var sockets = new List<Socket>();
        for (int i = 0; i < 50; i++)
        {
            var socket = new Socket(context, (SocketType)(i % 11));
            socket.Bind(Endpoints.NewInproc());
            sockets.Add(socket);
        }

        var stopwatch = Stopwatch.StartNew();
        context.Dispose();
        stopwatch.Stop();

        foreach (Socket socket in sockets)
        {
            socket.Dispose();
        }

        Assert.True(stopwatch.Elapsed < s_bound, $"Context.Dispose took {stopwatch.Elapsed}");
    }

    private static void AssertTerminatedOrDisposed(Action use)
    {
        Exception? ex = Record.Exception(use);
        Assert.True(
            ex is ContextTerminatedException or ObjectDisposedException,
            $"expected ContextTerminatedException or ObjectDisposedException, got {ex?.GetType().Name ?? "no exception"}");
    }
}
