using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Messages;

/// <summary>A message nobody disposed is released by its finalizer: dropping received messages does not leak.</summary>
[Collection(ProcessMeasurementCollection.Name)]
public class DroppedMessageTests(ITestOutputHelper output)
{
    private const int Count = 20_000;
    private const int FrameSize = 64 * 1024;

    [Fact]
    public void Dropping_20000_received_64KB_messages_does_not_keep_their_native_bytes()
    {
        // The shape: pull.Recv().ToArray(), the Message dropped. 20,000 x 64 KB is 1.25 GiB of native frames;
        // without a safety net the process keeps all of them (it grew from 28 MB to 1,289 MB).
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        ForceFullCollection();
        long before = Environment.WorkingSet;
        long peak = before;

        BackgroundWork sender = BackgroundWork.Start("sender", () =>
        {
            byte[] frame = new byte[FrameSize];
            for (int i = 0; i < Count; i++)
            {
                push.Send(frame);
            }
        });

        long bytes = 0;
        for (int i = 0; i < Count; i++)
        {
            bytes += pull.Recv().ToArray().Length;
            if (i % 1000 == 999)
            {
                peak = Math.Max(peak, Environment.WorkingSet);
            }
        }

        sender.Join(Timeouts.Wait);
        ForceFullCollection();
        long after = Environment.WorkingSet;
        output.WriteLine($"working set: before {before >> 20} MiB, peak {peak >> 20} MiB, after a full collection {after >> 20} MiB");

        Assert.Equal((long)Count * FrameSize, bytes);
        Assert.True(peak - before < 600L << 20, $"the working set grew by {(peak - before) >> 20} MiB while receiving: dropped messages keep their frames");
        Assert.True(after - before < 200L << 20, $"the working set stayed {(after - before) >> 20} MiB above its start after a full collection");
    }

    [Fact]
    public void A_dropped_zero_copy_message_calls_its_free_callback_once_collected()
    {
        nint block = Marshal.AllocHGlobal(1000);
        int freed = 0;
        DropZeroCopyMessage(block, () => Interlocked.Increment(ref freed));

        ForceFullCollection();

        Assert.Equal(1, Volatile.Read(ref freed));
    }

    [Fact]
    public void A_dropped_multipart_message_releases_its_frames()
    {
        int freed = 0;
        DropMultipart(3, () => Interlocked.Increment(ref freed));

        ForceFullCollection();

        Assert.Equal(3, Volatile.Read(ref freed));
    }

    [Fact]
    public void A_disposed_message_is_not_closed_again_by_a_finalizer()
    {
        nint block = Marshal.AllocHGlobal(1000);
        int freed = 0;
        DisposeZeroCopyMessage(block, () => Interlocked.Increment(ref freed));

        ForceFullCollection();

        Assert.Equal(1, Volatile.Read(ref freed));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DropZeroCopyMessage(nint block, Action freed) =>
        _ = new Message(block, 1000, data =>
        {
            Marshal.FreeHGlobal(data);
            freed();
        });

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DisposeZeroCopyMessage(nint block, Action freed)
    {
        var message = new Message(block, 1000, data =>
        {
            Marshal.FreeHGlobal(data);
            freed();
        });
        message.Dispose();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DropMultipart(int frames, Action freed)
    {
        var multipart = new MultipartMessage();
        for (int i = 0; i < frames; i++)
        {
            multipart.Add(new Message(Marshal.AllocHGlobal(100), 100, data =>
            {
                Marshal.FreeHGlobal(data);
                freed();
            }));
        }
    }

    /// <summary>Collects, runs the finalizers (each closes a frame; a zero-copy one calls its free callback at once) and collects again.</summary>
    private static void ForceFullCollection()
    {
        var stopwatch = Stopwatch.StartNew();
        for (int i = 0; i < 2; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        GC.Collect();
        Assert.True(stopwatch.Elapsed < Timeouts.Wait, "the finalizers took too long");
    }
}
