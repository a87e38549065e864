using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// The bundled libzmq recycles message buffers and receive batches through size classes (native/libzmq). These tests
/// send frames of every size around the class boundaries, from several threads at once, and keep received frames
/// alive while their buffers' neighbours are recycled: a block handed out too small or while still in use shows up
/// as a frame whose bytes differ from what was sent.
/// </summary>
public class BufferRecyclingTests
{
    /// <summary>Every size up to 2,100 bytes, then a window around each quarter step of every power of two to 128 KB.</summary>
    private static readonly int[] BoundarySizes = CreateBoundarySizes();

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Frames_of_every_size_around_the_buffer_classes_arrive_intact_when_buffers_are_reused(bool inproc)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc);
        var (pull, push) = pair;
        int[] sizes = [.. BoundarySizes, .. Enumerable.Reverse(BoundarySizes)];

        Task sender = Waits.Run(() =>
        {
            for (int i = 0; i < sizes.Length; i++)
            {
                Assert.True(push.Send(InlineAndLargeFrameTests.Pattern(sizes[i], seed: i)));
            }
        });

        using var frame = new Message();
        for (int i = 0; i < sizes.Length; i++)
        {
            Assert.True(pull.Recv(frame));
            AssertFrame(frame, sizes[i], seed: i);
        }

        await sender;
    }

    [Fact]
    public async Task Senders_on_several_contexts_at_once_each_receive_exactly_what_they_sent()
    {
        const int Streams = 4;
        const int PerStream = 3000;

        Task[] streams = Enumerable.Range(0, Streams).Select(stream => Waits.Run(() =>
        {
            using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
            var (pull, push) = pair;
            Task sender = Waits.Run(() =>
            {
                using var outgoing = new Message();
                for (int i = 0; i < PerStream; i++)
                {
                    int size = SizeOf(stream, i);
                    outgoing.Rebuild(size);
                    InlineAndLargeFrameTests.Pattern(size, seed: stream + i).CopyTo(outgoing.Data);
                    Assert.True(push.Send(outgoing));
                }
            });

            using var incoming = new Message();
            for (int i = 0; i < PerStream; i++)
            {
                Assert.True(pull.Recv(incoming));
                AssertFrame(incoming, SizeOf(stream, i), seed: stream + i);
            }

            Assert.True(sender.Wait(Timeouts.Wait));
        })).ToArray();

        await Task.WhenAll(streams).WaitAsync(Timeouts.Wait * 4);
    }

    [Fact]
    public async Task Received_frames_kept_alive_keep_their_bytes_while_later_traffic_recycles_buffers()
    {
        const int Kept = 300;
        const int Later = 3000;
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;

        Task sender = Waits.Run(() =>
        {
            for (int i = 0; i < Kept + Later; i++)
            {
                Assert.True(push.Send(InlineAndLargeFrameTests.Pattern(SizeOf(0, i), seed: i)));
            }
        });

        var kept = new List<Message>();
        var copies = new List<Message>();
        try
        {
            for (int i = 0; i < Kept; i++)
            {
                var frame = new Message();
                kept.Add(frame);
                Assert.True(pull.Recv(frame));
                var copy = new Message();
                copies.Add(copy);
                copy.Copy(frame);
            }

            // Half of the received frames are closed now, half stay open with their copies: the buffers they share
            // must outlive whichever of the two is closed last, while new traffic reuses what was freed.
            for (int i = 0; i < Kept; i += 2)
            {
                kept[i].Dispose();
            }

            using var frameLater = new Message();
            for (int i = Kept; i < Kept + Later; i++)
            {
                Assert.True(pull.Recv(frameLater));
                AssertFrame(frameLater, SizeOf(0, i), seed: i);
            }

            for (int i = 0; i < Kept; i++)
            {
                AssertFrame(copies[i], SizeOf(0, i), seed: i);
                if (i % 2 == 1)
                {
                    AssertFrame(kept[i], SizeOf(0, i), seed: i);
                }
            }
        }
        finally
        {
            kept.ForEach(message => message.Dispose());
            copies.ForEach(message => message.Dispose());
        }

        await sender;
    }

    [Fact]
    public void Zero_copy_frames_around_the_buffer_classes_are_freed_once_and_arrive_intact()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        int freed = 0;
        int[] sizes = [.. BoundarySizes.Where(size => size >= 34 && size <= 20_000)];

        using var incoming = new Message();
        for (int i = 0; i < sizes.Length; i++)
        {
            byte[] bytes = InlineAndLargeFrameTests.Pattern(sizes[i], seed: i);
            nint data = Marshal.AllocHGlobal(bytes.Length);
            Marshal.Copy(bytes, 0, data, bytes.Length);
            using (var outgoing = new Message(data, bytes.Length, released =>
            {
                Marshal.FreeHGlobal(released);
                Interlocked.Increment(ref freed);
            }))
            {
                Assert.True(push.Send(outgoing));
            }

            Assert.True(pull.Recv(incoming));
            AssertFrame(incoming, sizes[i], seed: i);
            incoming.Rebuild();
        }

        Assert.Equal(sizes.Length, Volatile.Read(ref freed));
    }

    private static void AssertFrame(Message frame, int size, int seed)
    {
        Assert.Equal(size, frame.Size);
        Assert.True(frame.Data.SequenceEqual(InlineAndLargeFrameTests.Pattern(size, seed)), $"frame {seed} of {size} bytes differs");
    }

    /// <summary>A size from the boundary list, spread differently for each stream.</summary>
    private static int SizeOf(int stream, int index) =>
        BoundarySizes[((index * 7919) + (stream * 104_729)) % BoundarySizes.Length];

    private static int[] CreateBoundarySizes()
    {
        var sizes = new SortedSet<int>(Enumerable.Range(1, 2100));
        for (int shift = 9; shift <= 16; shift++)
        {
            for (int quarter = 4; quarter <= 8; quarter++)
            {
                int boundary = quarter << (shift - 2);
                for (int size = boundary - 96; size <= boundary + 24; size += 4)
                {
                    sizes.Add(size);
                }
            }
        }

        sizes.Add(70_000);
        sizes.Add(131_072);
        return [.. sizes];
    }
}
