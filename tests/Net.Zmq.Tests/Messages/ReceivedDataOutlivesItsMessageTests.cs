using System.Runtime.CompilerServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// <c>Span&lt;byte&gt; data = socket.Recv().Data;</c> leaves nothing holding the message; after a GC has released it,
/// the span must still read the frame, never freed memory. Each case runs in a child process: reading freed memory
/// may end the process.
/// </summary>
public class ReceivedDataOutlivesItsMessageTests
{
    [Fact]
    public void A_span_from_Recv_Data_reads_the_frame_after_the_message_was_collected() =>
        IsolatedProcess.Run(ReadSpansOfDroppedMessages, Timeouts.Wait * 4).AssertSucceeded();

    [Fact]
    public void A_span_from_a_RecvMultipart_frame_reads_the_frame_after_the_message_was_collected() =>
        IsolatedProcess.Run(ReadSpanOfDroppedMultipart, Timeouts.Wait * 4).AssertSucceeded();

    // 10 B is kept inside the zmq_msg_t; 64 KB comes from the bundled libzmq's cache of freed buffers, so a freed one
    // is handed to the next frame of that size; 1 MiB is an mmap of its own that glibc unmaps when it is freed.
    private static readonly int[] Sizes = [10, 100, 64 * 1024, 1024 * 1024];

    private static void ReadSpansOfDroppedMessages() => ReadSpansOfDroppedFrames(multipart: false);

    private static void ReadSpanOfDroppedMultipart() => ReadSpansOfDroppedFrames(multipart: true);

    private static void ReadSpansOfDroppedFrames(bool multipart)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        foreach (int size in Sizes)
        {
            push.Send(Pattern(size, 1));
            Span<byte> data = multipart ? DataOfDroppedMultipart(pull) : DataOfDroppedMessage(pull);

            CollectAndReuseFreedMemory(pull, push, size);

            Assert.True(data.SequenceEqual(Pattern(size, 1)), $"the {size}-byte span changed once its message was collected");
        }
    }

    // The shape under test, in a method of its own so that no JIT tier keeps the message alive in a slot of the caller.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Span<byte> DataOfDroppedMessage(Socket pull) => pull.Recv().Data;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Span<byte> DataOfDroppedMultipart(Socket pull) => pull.RecvMultipart()[0].Data;

    /// <summary>Runs the finalizers of whatever was dropped, then receives frames of other bytes that may take the freed memory.</summary>
    private static void CollectAndReuseFreedMemory(Socket pull, Socket push, int size)
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        using var other = new Message();
        for (int i = 0; i < 4; i++)
        {
            push.Send(Pattern(size, 2));
            pull.Recv(other);
        }
    }

    private static byte[] Pattern(int size, int seed)
    {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)((i * 31) + seed);
        }

        return bytes;
    }
}
