using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Lost-wake-up trap: a frame arrives while its receive is being cancelled. Either the receive completes with the
/// frame, or it is cancelled and the frame is there for the next receive: never lost, never delivered twice, and a
/// late cancellation never leaks into the next operation.
/// </summary>
public sealed class CancellationRacingCompletionTests(ITestOutputHelper output)
{
    private const int Iterations = 1500;

    [Fact]
    public async Task A_frame_racing_the_cancellation_of_its_receive_is_received_exactly_once()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        using var message = new Message();
        int completed = 0;
        int cancelled = 0;

        await Task.Run(async () =>
        {
            for (int i = 0; i < Iterations; i++)
            {
                // Not disposed: the cancellation may still be running on a pool thread after the receive completed,
                // and a source without a timer holds nothing that needs releasing.
                var cancel = new CancellationTokenSource();
                ValueTask received = pair.Binder.RecvAsync(message, cancel.Token);

                // The send wakes the reactor, which races the cancellation; vary which starts first and on which thread.
                if (i % 2 == 0)
                {
                    pair.Connector.Send(BitConverter.GetBytes(i));
                    cancel.Cancel();
                }
                else
                {
                    ThreadPool.UnsafeQueueUserWorkItem(static source => source.Cancel(), cancel, preferLocal: false);
                    pair.Connector.Send(BitConverter.GetBytes(i));
                }

                try
                {
                    await received;
                    completed++;
                }
                catch (OperationCanceledException)
                {
                    cancelled++;

                    // The frame was not consumed: the next receive gets it.
                    await ReceiveUncancelled(pair.Binder, message, timeout.Token, i);
                }

                Assert.Equal(i, BitConverter.ToInt32(message.Data));

                // A parked receive with a token nobody cancels, while the cancellation above may still be running.
                ValueTask next = ReceiveUncancelled(pair.Binder, message, timeout.Token, i);
                pair.Connector.Send("follow-up");
                await next;
                Assert.Equal("follow-up", message.ToString());
            }
        });

        output.WriteLine($"{completed} receives completed, {cancelled} were cancelled first");
        Frames.AssertNothingWaiting(pair.Binder);
    }

    private static async ValueTask ReceiveUncancelled(Socket socket, Message message, CancellationToken timeout, int iteration)
    {
        try
        {
            await socket.RecvAsync(message, timeout);
        }
        catch (OperationCanceledException) when (!timeout.IsCancellationRequested)
        {
            Assert.Fail($"iteration {iteration}: a receive was cancelled through a token nobody cancelled");
        }
    }
}
