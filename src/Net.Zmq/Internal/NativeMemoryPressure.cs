using System.Diagnostics;

namespace Net.Zmq.Internal;

/// <summary>
/// Tells the GC about native memory that only a finalizer releases, in steps of <see cref="Step"/> bytes:
/// <see cref="GC.AddMemoryPressure"/> and <see cref="GC.RemoveMemoryPressure"/> cost a call into the runtime each, too
/// much to pay per received frame, so a process-wide count of the bytes held is kept with one interlocked add and the
/// GC hears about it only when the count moves a step away from what it was told. A program that disposes what it
/// receives never leaves the first step and never calls the GC; one that drops large frames reports a step every
/// <see cref="Step"/> bytes, which makes the GC collect, and run the finalizers that release them.
/// <para>
/// The runtime lets reported pressure grow with the managed heap (a third of it, times the ratio of added to removed
/// pressure) before it collects, so in a process with a large heap dropped frames could still pile up to gigabytes.
/// So when <see cref="CollectAfter"/> bytes were reported since the last collection of any generation, the count asks
/// for a gen1 collection itself: the messages a receive loop drops are young, a gen1 collection (a few milliseconds)
/// finds them, and their guards' finalizers release the frames. That is one collection per 64 MiB at most.
/// </para>
/// </summary>
internal static class NativeMemoryPressure
{
    /// <summary>How far the count moves before the GC is told.</summary>
    internal const long Step = 1 << 20;

    /// <summary>How many bytes may be reported without any collection before one is asked for.</summary>
    internal const long CollectAfter = 64L << 20;

    private static readonly object s_gate = new();

    // Bytes held now. Written by interlocked adds from any thread (receivers, disposers, the finalizer thread).
    private static long s_held;

    // Bytes the GC was told of: a multiple of Step, written under s_gate; within two steps of s_held after each Adjust.
    private static long s_reported;

    // Under s_gate: the gen0 collection count when s_reportedSinceCollection was last reset, and the bytes reported since.
    private static int s_collectionsSeen;
    private static long s_reportedSinceCollection;

    /// <summary>Counts <paramref name="bytes"/> more native bytes held; tells the GC when the count passed a step.</summary>
    internal static void Add(long bytes)
    {
        Debug.Assert(bytes >= 0, "a frame's size is never negative");
        if (Interlocked.Add(ref s_held, bytes) > Volatile.Read(ref s_reported) + Step)
        {
            Adjust();
        }
    }

    /// <summary>Counts <paramref name="bytes"/> native bytes released; takes back a step from the GC when the count fell one below what it was told.</summary>
    internal static void Remove(long bytes)
    {
        Debug.Assert(bytes >= 0, "a frame's size is never negative");
        if (Interlocked.Add(ref s_held, -bytes) < Volatile.Read(ref s_reported) - Step)
        {
            Adjust();
        }
    }

    /// <summary>Reports the whole steps of the count as it is now, by the difference from what the GC was told.</summary>
    private static void Adjust()
    {
        lock (s_gate)
        {
            long target = Math.Max(0, Volatile.Read(ref s_held)) / Step * Step;
            long reported = s_reported;
            if (target > reported)
            {
                GC.AddMemoryPressure(target - reported);
                CollectIfPilingUp(target - reported);
            }
            else if (target < reported)
            {
                GC.RemoveMemoryPressure(reported - target);
            }

            Volatile.Write(ref s_reported, target);
            Debug.Assert(s_reported % Step == 0 && s_reported >= 0, "the GC is told whole steps, never a negative amount");
        }
    }

    /// <summary>Asks for a gen1 collection once <see cref="CollectAfter"/> bytes were reported with no collection in between (under s_gate).</summary>
    private static void CollectIfPilingUp(long added)
    {
        int collections = GC.CollectionCount(0); // every collection, of any generation, counts gen0 too
        if (collections != s_collectionsSeen)
        {
            s_collectionsSeen = collections;
            s_reportedSinceCollection = 0;
        }

        s_reportedSinceCollection += added;
        if (s_reportedSinceCollection >= CollectAfter)
        {
            s_reportedSinceCollection = 0;
            GC.Collect(1, GCCollectionMode.Forced, blocking: true);
        }
    }
}
