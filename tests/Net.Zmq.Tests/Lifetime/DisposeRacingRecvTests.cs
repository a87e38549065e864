using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Lifetime;

public class DisposeRacingRecvTests(ITestOutputHelper output)
{
    [Fact]
    public async Task Socket_Dispose_while_a_Recv_is_in_flight_never_crashes_and_the_Recv_ends_with_ContextTerminatedException()
    {
        // Dispose can win the race against the receiving thread entering Recv (the Recv then sees
        // ObjectDisposedException); retry until a Recv was really in flight, which is nearly always the first time.
        const int Attempts = 20;
        var outcomes = new List<string>();
        for (int attempt = 0; attempt < Attempts; attempt++)
        {
            using var context = Sockets.NewContext();
            var pull = Sockets.New(context, SocketType.Pull);
            pull.Bind(Endpoints.NewInproc());
            Task receive = Waits.StartBlocked(() => pull.Recv(new byte[16]));

            pull.Dispose();
            context.Shutdown();

            Assert.True(await Waits.FinishesAsync(receive), "the receive did not end after Dispose and Shutdown");
            Exception? failure = receive.Exception?.InnerException;
            outcomes.Add(failure?.GetType().Name ?? "no exception");
            Assert.True(
                failure is ContextTerminatedException or ObjectDisposedException,
                $"the receive ended with {failure?.ToString() ?? "no exception"}");
            if (failure is ContextTerminatedException terminated)
            {
                Assert.Equal(ZmqError.ETERM, terminated.ErrorNumber);
                return;
            }
        }

        Assert.Fail($"no attempt had a receive in flight: {string.Join(", ", outcomes)}");
    }

    [Fact]
    public async Task Socket_Dispose_while_a_Recv_is_in_flight_closes_the_socket_once_the_Recv_returns()
    {
        using var context = Sockets.NewLingeringContext();
        string endpoint = Endpoints.NewInproc();
        var pull = Sockets.New(context, SocketType.Pull);
        pull.Bind(endpoint);
        Task<string> receive = Waits.StartBlocked(() => pull.RecvString());

        pull.Dispose();
        using (var push = new Socket(context, SocketType.Push))
        {
            push.Connect(endpoint);
            push.Send("delivered");
        }

        Assert.True(await Waits.FinishesAsync(receive));
        if (receive.IsCompletedSuccessfully)
        {
            // The receive was in flight: it completes normally and only then is the socket closed.
            Assert.Equal("delivered", await receive);
        }
        else
        {
            await Assert.ThrowsAsync<ObjectDisposedException>(() => receive);
        }

        Assert.True(pull.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => pull.RecvString());
    }

    /// <summary>
    /// The same with a receiving thread that called the socket many times in a row first and is known to be blocked
    /// inside libzmq (the kernel's thread state) when Dispose comes: the close waits for the receive in flight.
    /// </summary>
    [Fact]
    public async Task Socket_Dispose_while_a_thread_that_made_many_calls_in_a_row_is_blocked_in_Recv_lets_the_Recv_finish()
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        using var context = Sockets.NewLingeringContext();
        string endpoint = Endpoints.NewInproc();
        var pull = Sockets.New(context, SocketType.Pull);
        pull.Bind(endpoint);
        Task<string> receive = BlockedThreads.RunUntilBlocked(() =>
        {
            for (int i = 0; i < 100; i++)
            {
                Assert.False(pull.TryRecv(new byte[16], out _));
            }

            return pull.RecvString();
        }, out _);

        pull.Dispose();
        Assert.True(pull.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => pull.TryRecv(new byte[16], out _));
        using (var push = new Socket(context, SocketType.Push))
        {
            push.Connect(endpoint);
            push.Send("delivered");
        }

        Assert.Equal("delivered", await receive.WaitAsync(Timeouts.Wait));
        Assert.Throws<ObjectDisposedException>(() => pull.RecvString());
    }
}
