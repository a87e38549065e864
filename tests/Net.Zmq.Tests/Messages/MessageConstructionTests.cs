using System.Text;

namespace Net.Zmq.Tests.Messages;

public class MessageConstructionTests
{
    [Fact]
    public void Empty_message_has_size_zero_and_no_data()
    {
        using var message = new Message();

        Assert.Equal(0, message.Size);
        Assert.True(message.Data.IsEmpty);
        Assert.Empty(message.ToArray());
        Assert.False(message.More);
        Assert.Equal("", message.ToString());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(33)]
    [InlineData(34)]
    [InlineData(4096)]
    [InlineData(1 << 20)]
    public void Sized_message_has_the_requested_size(int size)
    {
        using var message = new Message(size);

        Assert.Equal(size, message.Size);
        Assert.Equal(size, message.Data.Length);
    }

    [Fact]
    public void Message_from_bytes_holds_a_copy_of_them()
    {
        byte[] source = [1, 2, 3, 4, 5];
        using var message = new Message(source);

        source[0] = 99;

        Assert.Equal(new byte[] { 1, 2, 3, 4, 5 }, message.ToArray());
    }

    [Fact]
    public void Message_from_text_holds_its_utf8_bytes()
    {
        using var message = new Message("héllo ✓");

        Assert.Equal(Encoding.UTF8.GetBytes("héllo ✓"), message.ToArray());
        Assert.Equal(Encoding.UTF8.GetByteCount("héllo ✓"), message.Size);
        Assert.Equal("héllo ✓", message.ToString());
    }

    [Theory]
    [InlineData(5)]
    [InlineData(33)]
    [InlineData(100)]
    [InlineData(70_000)]
    public void Writes_through_Data_are_visible_through_ToArray(int size)
    {
        using var message = new Message(size);
        Span<byte> data = message.Data;
        for (int i = 0; i < data.Length; i++)
        {
            data[i] = (byte)(i * 31);
        }

        byte[] copy = message.ToArray();

        Assert.Equal(size, copy.Length);
        for (int i = 0; i < copy.Length; i++)
        {
            Assert.Equal((byte)(i * 31), copy[i]);
        }
    }

    [Fact]
    public void Negative_size_throws_ArgumentOutOfRangeException()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Message(-1));
    }

    [Fact]
    public void Null_text_throws_ArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => new Message((string)null!));
    }
}
