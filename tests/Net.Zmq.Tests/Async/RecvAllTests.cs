using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>RecvAllAsync and RecvAllMultipartAsync feed an await foreach until the socket or its context goes away.</summary>
public sealed class RecvAllTests : PushPullPerTest
{
    private const int Count = 200;

    [Fact]
    public async Task RecvAllAsync_yields_every_frame_in_order()
    {
        Task sending = Waits.Run(() =>
        {
            for (int i = 0; i < Count; i++)
            {
                Push.Send($"frame {i}");
            }
        });

        int received = 0;
        await foreach (Message frame in Pull.RecvAllAsync(Timeout.Token))
        {
            Assert.Equal($"frame {received}", frame.ToString());
            if (++received == Count)
            {
                break;
            }
        }

        await sending;
        Assert.Equal(Count, received);
    }

    [Fact]
    public async Task RecvAllMultipartAsync_yields_every_whole_message_in_order()
    {
        Task sending = Waits.Run(() =>
        {
            for (int i = 0; i < Count; i++)
            {
                Frames.SendStrings(Push, "head", $"body {i}");
            }
        });

        int received = 0;
        await foreach (MultipartMessage message in Pull.RecvAllMultipartAsync(Timeout.Token))
        {
            Assert.Equal(new[] { "head", $"body {received}" }, message.Select(frame => frame.ToString()));
            if (++received == Count)
            {
                break;
            }
        }

        await sending;
        Assert.Equal(Count, received);
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(false, true)]
    [InlineData(true, false)]
    [InlineData(true, true)]
    public async Task The_loop_ends_quietly_when_the_socket_is_disposed_or_the_context_shut_down(bool multipart, bool shutDownContext)
    {
        Push.Send("one");
        Push.Send("two");

        var seen = new List<string>();
        var bothSeen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task loop = Task.Run(async () =>
        {
            if (multipart)
            {
                await foreach (MultipartMessage message in Pull.RecvAllMultipartAsync(Timeout.Token))
                {
                    Saw(message[0].ToString());
                }
            }
            else
            {
                await foreach (Message frame in Pull.RecvAllAsync(Timeout.Token))
                {
                    Saw(frame.ToString());
                }
            }

            void Saw(string text)
            {
                seen.Add(text);
                if (seen.Count == 2)
                {
                    bothSeen.SetResult();
                }
            }
        });

        // The end comes either while the loop's next receive is parked or before it starts: both end quietly.
        Assert.True(await Waits.FinishesAsync(bothSeen.Task), "the loop did not receive the two frames");
        if (shutDownContext)
        {
            Context.Shutdown();
        }
        else
        {
            Pull.Dispose();
        }

        Assert.True(await Waits.FinishesAsync(loop), "the loop did not end");
        await loop;
        Assert.Equal(new[] { "one", "two" }, seen);
    }

    [Fact]
    public async Task Cancellation_ends_the_loop_with_OperationCanceledException()
    {
        using var cancel = new CancellationTokenSource(Timeouts.Wait);
        Push.Send("only");
        int received = 0;
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (Message frame in Pull.RecvAllAsync(cancel.Token))
            {
                received++;
                await cancel.CancelAsync();
            }
        });
        Assert.Equal(1, received);
    }
}
