using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Disposals racing the async machinery: two threads disposing the same async-used socket at once must give its reactor
/// registration back once (a slot given back twice would later be shared by two sockets, and one of them would never be
/// woken), and a dispose racing the first asynchronous receive must end that receive and stop watching the socket's
/// descriptor before libzmq closes it (its number is soon another socket's, whose watch must not be removed).
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

        await AssertNewSocketsAreWoken(timeout.Token);
    }

    /// <summary>
    /// Each round races three threads on a fresh PULL: a synchronous receive (inside libzmq, or not yet, when the
    /// driver is made: its end then hands over or closes), the first asynchronous receive (which makes the driver and
    /// parks) and a dispose, the last after a spin that differs from round to round. The windows are short, so most
    /// rounds pass whatever the code does; a receive left parked by a dispose that missed it fails the round.
    /// </summary>
    [Fact]
    public async Task The_first_async_receive_racing_a_dispose_always_ends()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        using var start = new Barrier(3);
        for (int i = 0; i < Races; i++)
        {
            var pull = new Socket(Context, SocketType.Pull);
            using var push = new Socket(Context, SocketType.Push);
            push.Connect(Endpoints.BindInproc(pull));
            Task synchronous = Waits.Run(() =>
            {
                start.SignalAndWait();
                try
                {
                    pull.RecvString();
                }
                catch (ObjectDisposedException)
                {
                }
            });
            Task<int> first = Waits.Run(() =>
            {
                start.SignalAndWait();
                return pull.RecvAsync(new byte[8], timeout.Token).AsTask();
            }).Unwrap();
            start.SignalAndWait();
            Thread.SpinWait(i % 64);
            pull.Dispose();
            push.Send("wake", SendFlags.DontWait); // for a synchronous receive already inside libzmq

            Assert.True(await Waits.FinishesAsync(first), $"round {i}: the first async receive was never ended");
            Exception? outcome = await Record.ExceptionAsync(() => first);
            if (outcome is null)
            {
                // Its attempt was inside libzmq as the frame came, so it took it: one more for the synchronous receive.
                push.Send("wake", SendFlags.DontWait);
            }
            else
            {
                Assert.IsType<ObjectDisposedException>(outcome);
            }

            Assert.True(await Waits.FinishesAsync(synchronous), $"round {i}: the synchronous receive never returned");
        }

        await AssertNewSocketsAreWoken(timeout.Token);
    }

    /// <summary>Every one of <see cref="Survivors"/> new sockets' parked receives is woken by its frame.</summary>
    private async Task AssertNewSocketsAreWoken(CancellationToken cancellationToken)
    {
        var pulls = new Socket[Survivors];
        using var push = new Socket(Context, SocketType.Push);
        try
        {
            var receives = new Task<string>[Survivors];
            for (int i = 0; i < Survivors; i++)
            {
                pulls[i] = new Socket(Context, SocketType.Pull);
                push.Connect(Endpoints.BindInproc(pulls[i]));
                receives[i] = pulls[i].RecvStringAsync(cancellationToken).AsTask();
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
