namespace Net.Zmq.Tests.Support;

/// <summary>Measures managed allocation on the calling thread.</summary>
internal static class Allocations
{
    /// <summary>
    /// Runs <paramref name="operation"/> 100 times to warm up (JIT, type loading, lazy statics), then
    /// <paramref name="iterations"/> times; returns the bytes this thread allocated during the second series.
    /// </summary>
    public static long Measure(Action operation, int iterations)
    {
        for (int i = 0; i < 100; i++)
        {
            operation();
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < iterations; i++)
        {
            operation();
        }

        return GC.GetAllocatedBytesForCurrentThread() - before;
    }
}
