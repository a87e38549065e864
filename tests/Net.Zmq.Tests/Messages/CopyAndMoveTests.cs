using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Net.Zmq.Tests.Messages;

public unsafe class CopyAndMoveTests
{
    [Theory]
    [InlineData(10)]
    [InlineData(5000)]
    public void Copy_gives_the_destination_the_same_bytes_and_leaves_the_source_intact(int size)
    {
        byte[] bytes = InlineAndLargeFrameTests.Pattern(size, seed: 1);
        using var source = new Message(bytes);
        using var destination = new Message("old content");

        destination.Copy(source);

        Assert.Equal(bytes, destination.ToArray());
        Assert.Equal(bytes, source.ToArray());
    }

    [Fact]
    public void Copy_of_a_large_frame_shares_the_content_instead_of_copying_bytes()
    {
        using var source = new Message(100_000);
        using var destination = new Message();

        destination.Copy(source);

        Assert.True(Address(source.Data) == Address(destination.Data));
    }

    [Fact]
    public void Move_transfers_the_content_and_empties_the_source()
    {
        byte[] bytes = InlineAndLargeFrameTests.Pattern(5000, seed: 2);
        using var source = new Message(bytes);
        void* before = Address(source.Data);
        using var destination = new Message("old content");

        destination.Move(source);

        Assert.Equal(bytes, destination.ToArray());
        Assert.True(before == Address(destination.Data));
        Assert.Equal(0, source.Size);
        Assert.False(source.IsDisposed);
    }

    [Fact]
    public void Moved_from_message_can_be_filled_again()
    {
        using var source = new Message("first");
        using var destination = new Message();
        destination.Move(source);

        source.Copy(destination);

        Assert.Equal("first", source.ToString());
        Assert.Equal("first", destination.ToString());
    }

    [Fact]
    public void Copy_and_Move_onto_themselves_change_nothing()
    {
        using var message = new Message("self");

        message.Copy(message);
        message.Move(message);

        Assert.Equal("self", message.ToString());
    }

    [Fact]
    public void Copy_and_Move_from_null_throw_ArgumentNullException()
    {
        using var message = new Message();

        Assert.Throws<ArgumentNullException>(() => message.Copy(null!));
        Assert.Throws<ArgumentNullException>(() => message.Move(null!));
    }

    [Fact]
    public void Copy_and_Move_involving_a_disposed_message_throw_ObjectDisposedException()
    {
        using var live = new Message("live");
        var disposed = new Message("gone");
        disposed.Dispose();

        Assert.Throws<ObjectDisposedException>(() => live.Copy(disposed));
        Assert.Throws<ObjectDisposedException>(() => live.Move(disposed));
        Assert.Throws<ObjectDisposedException>(() => disposed.Copy(live));
        Assert.Throws<ObjectDisposedException>(() => disposed.Move(live));
        Assert.Equal("live", live.ToString());
    }

    private static void* Address(Span<byte> span) => Unsafe.AsPointer(ref MemoryMarshal.GetReference(span));
}
