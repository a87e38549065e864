using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// The <c>Data</c> of a message the library hands out is memory the GC owns (a copy, for frames larger than libzmq's
/// inline size), and behaves as the frame: what is written to it is sent, copied and moved with the message.
/// </summary>
public class ReceivedMessageDataTests
{
    [Theory]
    [InlineData(10)]
    [InlineData(5000)]
    public void Bytes_written_through_Data_of_a_received_message_are_sent_when_it_is_forwarded(int size)
    {
        using var first = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var second = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        first.Connector.Send(new byte[size]);
        using Message message = first.Binder.Recv();

        message.Data.Fill(7);
        message.Data[^1] = 9;
        second.Connector.Send(message);

        byte[] forwarded = second.Binder.RecvBytes();
        Assert.Equal(size, forwarded.Length);
        Assert.All(forwarded[..^1], b => Assert.Equal(7, b));
        Assert.Equal(9, forwarded[^1]);
    }

    /// <summary>The same for the frames of a received multipart message, forwarded whole (the usual envelope edit).</summary>
    [Theory]
    [InlineData(10)]
    [InlineData(5000)]
    public async Task Bytes_written_through_Data_of_a_received_multipart_message_are_sent_when_it_is_forwarded(int size)
    {
        using var first = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var second = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        using var third = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        for (int i = 0; i < 3; i++)
        {
            first.Connector.Send(new byte[size], SendFlags.SendMore);
            first.Connector.Send(new byte[size]);
        }

        using MultipartMessage blocking = first.Binder.RecvMultipart();
        using MultipartMessage timed = first.Binder.RecvMultipart();
        using MultipartMessage awaited = first.Binder.RecvMultipart();
        foreach (MultipartMessage message in new[] { blocking, timed, awaited })
        {
            message[1].Data[0] = 42;
            message[1].Data[^1] = 9;
        }

        second.Connector.SendMultipart(blocking);
        Assert.True(second.Connector.TrySendMultipart(timed, Timeouts.Wait));
        await third.Connector.SendMultipartAsync(awaited).AsTask().WaitAsync(Timeouts.Wait);

        foreach (Socket pull in new[] { second.Binder, second.Binder, third.Binder })
        {
            using MultipartMessage forwarded = pull.RecvMultipart();
            Assert.Equal(2, forwarded.Count);
            Assert.Equal(42, forwarded[1].Data[0]);
            Assert.Equal(9, forwarded[1].Data[^1]);
        }
    }

    [Fact]
    public void A_copy_and_a_move_of_a_received_message_carry_what_was_written_through_Data()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        pair.Connector.Send(new byte[5000]);
        using Message received = pair.Binder.Recv();
        received.Data[0] = 42;

        using var copy = new Message();
        copy.Copy(received);
        using var moved = new Message();
        moved.Move(received);

        Assert.Equal(42, copy.Data[0]);
        Assert.Equal(42, moved.Data[0]);
        Assert.Equal(0, received.Size);
    }

    [Fact]
    public void Receiving_into_a_received_message_again_shows_the_new_frame_and_leaves_the_old_span_readable()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        pair.Connector.Send(Enumerable.Repeat((byte)1, 5000).ToArray());
        pair.Connector.Send(Enumerable.Repeat((byte)2, 6000).ToArray());
        using Message message = pair.Binder.Recv();
        Span<byte> first = message.Data;

        Assert.True(pair.Binder.Recv(message));

        Assert.Equal(6000, message.Data.Length);
        Assert.All(message.ToArray(), b => Assert.Equal(2, b));
        Assert.Equal(5000, first.Length);
        Assert.True(first.IndexOfAnyExcept((byte)1) < 0, "the span of the first frame changed");
    }

    [Fact]
    public void A_large_received_frame_keeps_its_metadata_after_Data_was_read()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        pair.Connector.Send(new byte[5000]);
        using Message message = pair.Binder.Recv();

        Assert.Equal(5000, message.Data.Length);

        Assert.Equal("PUSH", message.GetMetadata("Socket-Type"));
        Assert.NotNull(message.GetMetadata("Peer-Address"));
    }
}
