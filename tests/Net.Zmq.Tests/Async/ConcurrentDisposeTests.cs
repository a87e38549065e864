using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Two threads disposing the same async-used socket at once must give its reactor registration back once: a slot
/// given back twice would later be shared by two sockets, and one of them would never be woken.
/// </summary>
public sealed class ConcurrentDisposeTests : ContextPerTest
{
    private const int Races = 300;
    private const int Survivors = 100;

    [Fact]
    public async Task Sockets_created_after_racing_disposals_are_all_still_woken()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        using var start = new Barrier(2);
        for (int i = 0; i < Races; i++)
        {
            var socket = new Socket(Context, SocketType.Pull);
            Task<int> parked = socket.RecvAsync(new byte[1], timeout.Token).AsTask();
            Task other = Waits.Run(() =>
            {
                start.SignalAndWait();
                socket.Dispose();
            });
            start.SignalAndWait();
            socket.Dispose();
            await other;
            await Assert.ThrowsAsync<ObjectDisposedException>(() => parked);
        }

        var pulls = new Socket[Survivors];
        using var push = new Socket(Context, SocketType.Push);
        try
        {
            var receives = new Task<string>[Survivors];
            for (int i = 0; i < Survivors; i++)
            {
                pulls[i] = new Socket(Context, SocketType.Pull);
                push.Connect(Endpoints.BindInproc(pulls[i]));
                receives[i] = pulls[i].RecvStringAsync(timeout.Token).AsTask();
            }

            // PUSH deals round-robin, one frame to each connected PULL.
            for (int i = 0; i < Survivors; i++)
            {
                push.Send("wake");
            }

            Task<string[]> all = Task.WhenAll(receives);
            Assert.True(await Waits.FinishesAsync(all), $"{receives.Count(r => !r.IsCompleted)} of {Survivors} parked receives were never woken");
            Assert.All(await all, text => Assert.Equal("wake", text));
        }
        finally
        {
            foreach (Socket? pull in pulls)
            {
                pull?.Dispose();
            }
        }
    }
}
