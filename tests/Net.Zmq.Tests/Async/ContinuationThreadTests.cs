using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>Code after an await of a parked operation runs on the thread pool, never on Net.Zmq's reactor thread.</summary>
public sealed class ContinuationThreadTests
{
    private const string ReactorThreadName = "Net.Zmq reactor";

    [Fact]
    public async Task Continuations_of_parked_receives_and_sends_never_run_on_the_reactor_thread()
    {
        using Context context = Sockets.NewContext();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        pull.Bind(Endpoints.EphemeralTcp);
        string endpoint = pull.LastEndpoint;

        // Task.Run: no synchronization context, so each continuation runs where Net.Zmq schedules it.
        var threads = await Task.Run(async () =>
        {
            var seen = new List<(string? Name, bool IsPoolThread)>();
            ValueTask sent = push.SendAsync("parked until connected", timeout.Token);
            Assert.False(sent.IsCompleted);
            push.Connect(endpoint);
            await sent.ConfigureAwait(false);
            seen.Add((Thread.CurrentThread.Name, Thread.CurrentThread.IsThreadPoolThread));

            using var message = new Message();
            await pull.RecvAsync(message, timeout.Token).ConfigureAwait(false);
            Assert.Equal("parked until connected", message.ToString());
            for (int i = 0; i < 50; i++)
            {
                // Nothing is waiting, so the receive parks (unless the frame below outruns this check).
                ValueTask received = pull.RecvAsync(message, timeout.Token);
                bool parked = !received.IsCompleted;
                push.Send("x");
                await received.ConfigureAwait(false);
                if (parked)
                {
                    seen.Add((Thread.CurrentThread.Name, Thread.CurrentThread.IsThreadPoolThread));
                }
            }

            return seen;
        });

        Assert.True(threads.Count > 10, $"only {threads.Count} operations parked");
        Assert.All(threads, thread =>
        {
            Assert.NotEqual(ReactorThreadName, thread.Name);
            Assert.True(thread.IsPoolThread, $"a continuation ran on the non-pool thread '{thread.Name}'");
        });
    }
}
