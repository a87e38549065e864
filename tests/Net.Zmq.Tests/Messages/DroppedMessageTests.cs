using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// A message the library hands out (<c>Recv()</c>, <c>RecvMultipart()</c>) and nobody disposed is released once
/// collected, and the GC is told its native size: dropping received frames does not grow the process.
/// </summary>
[Collection(ProcessMeasurementCollection.Name)]
public class DroppedMessageTests(ITestOutputHelper output) : PushPullPerTest(inproc: true)
{
    private const int Count = 30_000;
    private const int FrameSize = 64 * 1024;

    [Theory]
    [InlineData("Recv")]
    [InlineData("RecvMultipart")]
    public void Dropping_30000_received_64KB_frames_does_not_grow_the_process(string call)
    {
        // The shape that grew the process to 2-3 GB without a single collection: the frame dropped, and nothing else
        // allocated that would make the GC run. 30,000 x 64 KB is 1.83 GiB of native frames; counted, they make the GC
        // collect at least every 64 MiB, so the growth stays a small part of that.
        ForceFullCollection();
        long before = Environment.WorkingSet;
        long peak = before;
        int collections = GC.CollectionCount(0);

        BackgroundWork sender = BackgroundWork.Start("sender", () =>
        {
            byte[] frame = new byte[FrameSize];
            for (int i = 0; i < Count; i++)
            {
                Push.Send(frame);
            }
        });

        long bytes = 0;
        for (int i = 0; i < Count; i++)
        {
            bytes += call == "Recv" ? Pull.Recv().Size : Pull.RecvMultipart()[0].Size;
            if (i % 1000 == 999)
            {
                peak = Math.Max(peak, Environment.WorkingSet);
            }
        }

        sender.Join(Timeouts.Wait);
        collections = GC.CollectionCount(0) - collections;
        ForceFullCollection();
        long after = Environment.WorkingSet;
        output.WriteLine($"{call}: working set before {before >> 20} MiB, peak {peak >> 20} MiB, after a full collection {after >> 20} MiB; {collections} collections while receiving");

        Assert.Equal((long)Count * FrameSize, bytes);
        Assert.True(collections > 0, "the GC never ran while dropped frames piled up: it does not know their size");
        Assert.True(peak - before < 512L << 20, $"the working set grew by {(peak - before) >> 20} MiB while receiving ({collections} collections): dropped messages keep their frames");
        // glibc keeps some freed heap memory mapped, so "after" is not back at "before"; a leak would be 1.25 GiB.
        Assert.True(after - before < 512L << 20, $"the working set stayed {(after - before) >> 20} MiB above its start after a full collection");
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_received_message_releases_its_frame_once_collected_and_a_disposed_one_not_again(bool disposed)
    {
        // Over inproc a zero-copy frame reaches the receiver as it was sent, so its free callback says when the
        // receiver's message closed it.
        int freed = 0;
        using (Message frame = ZeroCopyFrame(() => Interlocked.Increment(ref freed)))
        {
            Push.Send(frame);
        }

        if (disposed)
        {
            DisposeReceived(Pull);
        }
        else
        {
            DropReceived(Pull);
        }

        ForceFullCollection();

        Assert.Equal(1, Volatile.Read(ref freed));
    }

    [Fact]
    public void A_dropped_received_multipart_message_releases_its_frames_once_collected()
    {
        int freed = 0;
        using (var multipart = new MultipartMessage())
        {
            for (int i = 0; i < 3; i++)
            {
                multipart.Add(ZeroCopyFrame(() => Interlocked.Increment(ref freed)));
            }

            Push.SendMultipart(multipart);
        }

        DropReceivedMultipart(Pull);
        ForceFullCollection();

        Assert.Equal(3, Volatile.Read(ref freed));
    }

    private static Message ZeroCopyFrame(Action freed) =>
        new(Marshal.AllocHGlobal(1000), 1000, data =>
        {
            Marshal.FreeHGlobal(data);
            freed();
        });

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DropReceived(Socket pull) => _ = pull.Recv();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DropReceivedMultipart(Socket pull) => _ = pull.RecvMultipart();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DisposeReceived(Socket pull) => pull.Recv().Dispose();

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
