using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>A receive finds a waiting frame at once; otherwise it parks and completes when the frame arrives.</summary>
public sealed class SynchronousCompletionTests() : PushPullPerTest(inproc: true)
{
    [Fact]
    public async Task Every_receive_completes_synchronously_when_its_frame_is_already_waiting()
    {
        using var message = new MultipartMessage();
        using var single = new Message();
        var buffer = new byte[16];
        Frames.SendStrings(Push, "one");
        Frames.SendStrings(Push, "two");
        Frames.SendStrings(Push, "three", "parts");
        Frames.SendStrings(Push, "four");

        // Over inproc a send has put its frames into the pipe when it returns, so all four are waiting now.
        ValueTask<int> first = Pull.RecvAsync(buffer.AsMemory(), Timeout.Token);
        Assert.True(first.IsCompletedSuccessfully);
        Assert.Equal(3, await first);

        ValueTask second = Pull.RecvAsync(single, Timeout.Token);
        Assert.True(second.IsCompletedSuccessfully);
        Assert.Equal("two", single.ToString());

        ValueTask third = Pull.RecvMultipartAsync(message, Timeout.Token);
        Assert.True(third.IsCompletedSuccessfully);
        Assert.Equal(2, message.Count);

        ValueTask<string> fourth = Pull.RecvStringAsync(Timeout.Token);
        Assert.True(fourth.IsCompletedSuccessfully);
        Assert.Equal("four", await fourth);
    }

    [Fact]
    public async Task A_send_that_can_be_queued_completes_synchronously()
    {
        ValueTask sent = Push.SendAsync("queued at once", Timeout.Token);
        Assert.True(sent.IsCompletedSuccessfully);
        await sent;
        Assert.Equal("queued at once", await Pull.RecvStringAsync(Timeout.Token));
    }

    [Fact]
    public async Task A_receive_with_nothing_waiting_parks_and_completes_when_the_frame_arrives()
    {
        using var message = new Message();
        for (int i = 0; i < 20; i++)
        {
            ValueTask received = Pull.RecvAsync(message, Timeout.Token);
            Assert.False(received.IsCompleted);
            Push.Send($"late {i}");
            Assert.True(await Waits.FinishesAsync(received.AsTask()), $"receive {i} never completed");
            Assert.Equal($"late {i}", message.ToString());
        }
    }
}
