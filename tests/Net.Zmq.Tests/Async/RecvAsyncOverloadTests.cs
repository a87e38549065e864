using System.Text;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>Every RecvAsync form receives what the peer sent, whether the frame was already there or arrives later.</summary>
public sealed class RecvAsyncOverloadTests : PushPullPerTest
{
    [Fact]
    public async Task RecvAsync_into_memory_returns_the_frame_size()
    {
        var buffer = new byte[16];
        ValueTask<int> received = Pull.RecvAsync(buffer.AsMemory(2, 8), Timeout.Token);
        Push.Send("hello");
        Assert.Equal(5, await received);
        Assert.Equal("hello", Encoding.UTF8.GetString(buffer, 2, 5));
        Assert.All(buffer[..2].Concat(buffer[7..]), b => Assert.Equal(0, b));
    }

    [Fact]
    public async Task RecvAsync_into_a_short_memory_reports_truncation_with_the_full_size()
    {
        var buffer = new byte[4];
        Push.Send("0123456789");
        int size = await Pull.RecvAsync(buffer.AsMemory(), Timeout.Token);
        Assert.Equal(10, size);
        Assert.True(size > buffer.Length);
        Assert.Equal("0123", Encoding.UTF8.GetString(buffer));

        // The truncated frame is gone whole; the next receive gets the next frame.
        Push.Send("next");
        Assert.Equal(4, await Pull.RecvAsync(buffer.AsMemory(), Timeout.Token));
        Assert.Equal("next", Encoding.UTF8.GetString(buffer));
    }

    [Fact]
    public async Task RecvAsync_into_a_byte_array_receives_the_frame()
    {
        var buffer = new byte[8];
        ValueTask<int> received = Pull.RecvAsync(buffer, Timeout.Token);
        Push.Send(new byte[] { 1, 2, 3 });
        Assert.Equal(3, await received);
        Assert.Equal(new byte[] { 1, 2, 3, 0, 0, 0, 0, 0 }, buffer);
    }

    [Fact]
    public async Task RecvAsync_into_a_message_replaces_its_content_with_the_frame_of_any_size()
    {
        using var message = new Message("old content");
        var large = new byte[100_000];
        Random.Shared.NextBytes(large);
        ValueTask received = Pull.RecvAsync(message, Timeout.Token);
        Push.Send(large);
        await received;
        Assert.Equal(large, message.ToArray());
        Assert.False(message.More);

        Push.Send("small");
        await Pull.RecvAsync(message, Timeout.Token);
        Assert.Equal("small", message.ToString());
    }

    [Fact]
    public async Task RecvStringAsync_decodes_the_frame_as_utf8()
    {
        ValueTask<string> received = Pull.RecvStringAsync(Timeout.Token);
        Push.Send("grüße, 世界");
        Assert.Equal("grüße, 世界", await received);
    }

    [Fact]
    public async Task RecvMultipartAsync_into_a_message_receives_every_frame_and_reuses_it()
    {
        using var message = new MultipartMessage();
        for (int round = 0; round < 3; round++)
        {
            ValueTask received = Pull.RecvMultipartAsync(message, Timeout.Token);
            string[] frames = Enumerable.Range(0, 3 - round).Select(i => $"round {round} frame {i}").ToArray();
            Frames.SendStrings(Push, frames);
            await received;
            Assert.Equal(frames, message.Select(frame => frame.ToString()));
        }
    }

    [Fact]
    public async Task RecvMultipartAsync_without_a_message_returns_a_new_one_with_every_frame()
    {
        ValueTask<MultipartMessage> received = Pull.RecvMultipartAsync(Timeout.Token);
        Frames.SendStrings(Push, "a", "", "c");
        using MultipartMessage message = await received;
        Assert.Equal(new[] { "a", "", "c" }, message.Select(frame => frame.ToString()));
    }
}
