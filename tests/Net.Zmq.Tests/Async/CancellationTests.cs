using System.Diagnostics;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>Cancelling a parked operation ends it promptly, consumes or queues nothing, and leaves the socket usable.</summary>
[Collection(ProcessMeasurementCollection.Name)]
public sealed class CancellationTests(ITestOutputHelper output)
{
    private const int Samples = 21;
    private static readonly TimeSpan s_target = TimeSpan.FromMilliseconds(50);

    [Fact]
    public async Task Cancelling_a_parked_receive_completes_it_within_50_ms_and_the_next_receive_gets_the_next_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        using var message = new Message();
        var latencies = new List<TimeSpan>();
        await Task.Run(async () =>
        {
            for (int i = 0; i < Samples; i++)
            {
                using var cancel = new CancellationTokenSource();
                ValueTask received = pair.Binder.RecvAsync(message, cancel.Token);
                Assert.False(received.IsCompleted);
                latencies.Add(await TimeCancellation(cancel, received.AsTask()));

                pair.Connector.Send($"after cancel {i}");
                await pair.Binder.RecvAsync(message, timeout.Token);
                Assert.Equal($"after cancel {i}", message.ToString());
            }
        });

        AssertPrompt(latencies);
    }

    [Fact]
    public async Task Cancelling_a_parked_send_completes_it_within_50_ms_queues_nothing_and_the_next_send_is_delivered()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Push, SocketType.Pull);
        var (push, pull) = pair;
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        var latencies = new List<TimeSpan>();
        await Task.Run(async () =>
        {
            for (int i = 0; i < Samples; i++)
            {
                using var cancel = new CancellationTokenSource();
                ValueTask sent = push.SendAsync($"cancelled {i}", cancel.Token);
                Assert.False(sent.IsCompleted);
                latencies.Add(await TimeCancellation(cancel, sent.AsTask()));
            }
        });

        pair.Connect();
        await push.SendAsync("delivered", timeout.Token);
        Assert.Equal("delivered", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
        AssertPrompt(latencies);
    }

    [Fact]
    public async Task An_already_cancelled_token_completes_the_call_at_once_and_consumes_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(Timeouts.Wait);
        pair.Connector.Send("kept");
        ValueTask<int> received = pair.Binder.RecvAsync(new byte[8], new CancellationToken(canceled: true));
        Assert.True(received.IsCanceled);
        Assert.Equal("kept", await pair.Binder.RecvStringAsync(timeout.Token));
    }

    /// <summary>The time from Cancel until the awaiting code resumes with OperationCanceledException.</summary>
    private static async Task<TimeSpan> TimeCancellation(CancellationTokenSource cancel, Task operation)
    {
        var clock = Stopwatch.StartNew();
        await cancel.CancelAsync();
        OperationCanceledException error = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => operation);
        TimeSpan elapsed = clock.Elapsed;
        Assert.Equal(cancel.Token, error.CancellationToken);
        return elapsed;
    }

    private void AssertPrompt(List<TimeSpan> latencies)
    {
        latencies.Sort();
        TimeSpan median = latencies[latencies.Count / 2];
        output.WriteLine($"cancellation latency: median {median.TotalMilliseconds:F2} ms, max {latencies[^1].TotalMilliseconds:F2} ms over {latencies.Count}");

        // The median must meet the 50 ms target. A single sample may miss it only through this loaded 2-core
        // machine's scheduling noise (a thread-pool hop delayed by a busy core), so the maximum gets a wider bound.
        Assert.True(median < s_target, $"median cancellation latency {median.TotalMilliseconds:F1} ms exceeds 50 ms");
        Assert.True(latencies[^1] < TimeSpan.FromMilliseconds(500), $"a cancellation took {latencies[^1].TotalMilliseconds:F1} ms");
    }
}
