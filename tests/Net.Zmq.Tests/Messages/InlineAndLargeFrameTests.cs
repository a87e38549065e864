using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class InlineAndLargeFrameTests : ContextPerTest
{
    public static TheoryData<int> Sizes => new(0, 1, 32, 33, 34, 64, 1000, 8192, 8193, 65_536, 1 << 20);

    [Theory]
    [InlineData(1)]
    [InlineData(20)]
    [InlineData(33)]
    public void Small_inline_frame_survives_the_GC_moving_the_message(int size)
    {
        // Put the message between garbage so that a compacting collection is likely to move it.
        var garbage = new List<byte[]>();
        for (int i = 0; i < 1000; i++)
        {
            garbage.Add(new byte[64]);
        }

        using var message = new Message(size);
        for (int i = 0; i < 1000; i++)
        {
            garbage.Add(new byte[64]);
        }

        Span<byte> data = message.Data;
        for (int i = 0; i < size; i++)
        {
            data[i] = (byte)(0xA0 + i);
        }

        garbage.Clear();
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);

        // Both the span taken before the collection and a fresh one see the bytes.
        for (int i = 0; i < size; i++)
        {
            Assert.Equal((byte)(0xA0 + i), data[i]);
        }

        Assert.Equal(data.ToArray(), message.ToArray());
        Assert.Equal(size, message.Size);
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public void Sized_message_filled_through_Data_arrives_intact_over_tcp(int size)
    {
        byte[] source = Pattern(size, seed: 7);
        using var push = Sockets.New(Context, SocketType.Push);
        using var pull = Sockets.New(Context, SocketType.Pull);
        pull.Bind(Endpoints.EphemeralTcp);
        push.Connect(pull.LastEndpoint);

        using (var outgoing = new Message(size))
        {
            source.CopyTo(outgoing.Data);
            Assert.True(push.Send(outgoing));
        }

        using var incoming = new Message();
        Assert.True(pull.Recv(incoming));
        Assert.Equal(size, incoming.Size);
        Assert.True(incoming.Data.SequenceEqual(source));
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public void Sized_message_filled_through_Data_arrives_intact_over_inproc(int size)
    {
        byte[] source = Pattern(size, seed: 3);
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;

        using (var outgoing = new Message(size))
        {
            source.CopyTo(outgoing.Data);
            Assert.True(push.Send(outgoing));
        }

        Assert.Equal(source, pull.RecvBytes());
    }

    internal static byte[] Pattern(int size, int seed)
    {
        var bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)((i * 13) + seed + (i >> 8));
        }

        return bytes;
    }
}
