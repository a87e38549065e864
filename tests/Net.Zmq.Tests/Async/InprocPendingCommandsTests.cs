using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Lost-wake-up trap: over inproc, a connect before the bind leaves the pipe's attach as a command that only
/// reaches the socket when something processes its commands; an operation parked across it must still complete.
/// </summary>
public sealed class InprocPendingCommandsTests : ContextPerTest
{
    private const int Rounds = 100;

    [Fact]
    public async Task A_receive_parked_on_a_pair_that_connected_before_the_bind_completes_when_the_peer_sends()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        for (int i = 0; i < Rounds; i++)
        {
            string endpoint = Endpoints.NewInproc();
            using var early = new Socket(Context, SocketType.Pair);
            using var late = new Socket(Context, SocketType.Pair);
            early.Connect(endpoint);
            ValueTask<string> received = early.RecvStringAsync(timeout.Token);
            Assert.False(received.IsCompleted);

            late.Bind(endpoint);
            late.Send($"round {i}");
            Assert.Equal($"round {i}", await received);
        }
    }

    [Fact]
    public async Task A_send_parked_on_a_pair_before_its_peer_binds_is_delivered_after_the_bind()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        for (int i = 0; i < Rounds; i++)
        {
            string endpoint = Endpoints.NewInproc();
            using var early = new Socket(Context, SocketType.Pair);
            using var late = Sockets.New(Context, SocketType.Pair);
            early.Connect(endpoint);
            late.Bind(endpoint);

            // The attach command is still queued on the connecting side; its send must not be lost waiting for it.
            await early.SendAsync($"round {i}", timeout.Token);
            Assert.Equal($"round {i}", late.RecvString());
        }
    }

    [Fact]
    public async Task A_receive_parked_on_the_binder_completes_when_a_late_connector_sends()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        for (int i = 0; i < Rounds; i++)
        {
            using var binder = new Socket(Context, SocketType.Pull);
            using var connector = new Socket(Context, SocketType.Push);
            string endpoint = Endpoints.BindInproc(binder);
            ValueTask<string> received = binder.RecvStringAsync(timeout.Token);

            connector.Connect(endpoint);
            connector.Send($"round {i}");
            Assert.Equal($"round {i}", await received);
        }
    }
}
