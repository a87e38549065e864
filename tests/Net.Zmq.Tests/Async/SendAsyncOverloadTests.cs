using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>Every SendAsync form delivers its frame, and SendMore builds multipart messages.</summary>
public sealed class SendAsyncOverloadTests : PushPullPerTest
{
    [Fact]
    public async Task SendAsync_of_read_only_memory_sends_exactly_that_slice()
    {
        byte[] data = [0, 1, 2, 3, 4, 5];
        await Push.SendAsync(new ReadOnlyMemory<byte>(data, 1, 4), Timeout.Token);
        using Message received = Pull.Recv();
        Assert.Equal(new byte[] { 1, 2, 3, 4 }, received.ToArray());
    }

    [Fact]
    public async Task SendAsync_of_a_byte_array_sends_it_whole()
    {
        await Push.SendAsync(new byte[] { 9, 8, 7 }, Timeout.Token);
        using Message received = Pull.Recv();
        Assert.Equal(new byte[] { 9, 8, 7 }, received.ToArray());
    }

    [Fact]
    public async Task SendAsync_of_a_string_sends_its_utf8_bytes()
    {
        await Push.SendAsync("grüße, 世界", Timeout.Token);
        Assert.Equal("grüße, 世界", Pull.RecvString());
    }

    [Fact]
    public async Task SendAsync_of_a_message_sends_it_and_leaves_it_empty()
    {
        using var message = new Message("zero copy");
        await Push.SendAsync(message, Timeout.Token);
        Assert.Equal(0, message.Size);
        Assert.Equal("zero copy", Pull.RecvString());
    }

    [Fact]
    public async Task SendAsync_with_SendMore_builds_one_multipart_message_from_every_overload()
    {
        using var fourth = new Message("four");
        await Push.SendAsync(new ReadOnlyMemory<byte>([(byte)'o', (byte)'n', (byte)'e']), SendFlags.SendMore, Timeout.Token);
        await Push.SendAsync("two"u8.ToArray(), SendFlags.SendMore, Timeout.Token);
        await Push.SendAsync("three", SendFlags.SendMore, Timeout.Token);
        await Push.SendAsync(fourth, SendFlags.SendMore, Timeout.Token);
        await Push.SendAsync("five", Timeout.Token);
        Assert.Equal(new[] { "one", "two", "three", "four", "five" }, Frames.RecvStrings(Pull));
    }

    [Fact]
    public async Task SendMultipartAsync_sends_every_frame_as_one_message()
    {
        using var message = new MultipartMessage();
        message.Add("first");
        message.AddEmpty();
        message.Add(new byte[5000]);
        await Push.SendMultipartAsync(message, Timeout.Token);

        using MultipartMessage received = Pull.RecvMultipart();
        Assert.Equal(3, received.Count);
        Assert.Equal("first", received[0].ToString());
        Assert.Equal(0, received[1].Size);
        Assert.Equal(5000, received[2].Size);
    }
}
