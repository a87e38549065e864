using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>Message.Rebuild: a message re-initialised, empty or with a fresh buffer, and usable as new.</summary>
public class RebuildTests : PushPullPerTest
{
    [Fact]
    public void Rebuild_empties_a_received_message()
    {
        using var message = new Message();
        Push.Send(new byte[1000]);
        Assert.True(Pull.Recv(message));
        Assert.Equal(1000, message.Size);

        message.Rebuild();

        Assert.Equal(0, message.Size);
        Assert.False(message.More);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(8)]
    [InlineData(4096)]
    public void Rebuild_with_a_size_gives_a_fresh_buffer_to_fill_and_send(int size)
    {
        using var message = new Message("old content");

        message.Rebuild(size);
        Assert.Equal(size, message.Size);
        message.Data.Fill(7);
        Assert.True(Push.Send(message));

        message.Rebuild(size); // reused after the send left it empty
        Assert.Equal(size, message.Size);

        byte[] received = Pull.RecvBytes();
        Assert.Equal(size, received.Length);
        Assert.All(received, b => Assert.Equal(7, b));
    }

    [Fact]
    public void Rebuild_releases_a_zero_copy_buffer_at_once()
    {
        int freed = 0;
        nint data = System.Runtime.InteropServices.Marshal.AllocHGlobal(64);
        using var message = new Message(data, 64, pointer =>
        {
            System.Runtime.InteropServices.Marshal.FreeHGlobal(pointer);
            Interlocked.Increment(ref freed);
        });

        message.Rebuild(16);

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref freed) == 1, Timeouts.Wait), "the free callback did not run");
        Assert.Equal(16, message.Size);
    }

    [Fact]
    public void Rebuild_is_refused_on_a_disposed_message_and_for_a_negative_size()
    {
        var message = new Message();
        Assert.Throws<ArgumentOutOfRangeException>(() => message.Rebuild(-1));
        message.Dispose();
        Assert.Throws<ObjectDisposedException>(() => message.Rebuild());
        Assert.Throws<ObjectDisposedException>(() => message.Rebuild(4));
    }
}
