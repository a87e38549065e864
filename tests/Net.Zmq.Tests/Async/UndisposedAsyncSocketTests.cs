using System.Runtime.CompilerServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A socket used asynchronously and then dropped without Dispose is collected, its native socket closed by the
/// finalizers, like a socket never used asynchronously: the reactor must not keep it alive.
/// </summary>
[Collection(ProcessMeasurementCollection.Name)]
public sealed class UndisposedAsyncSocketTests
{
    private const int DealerCount = 50;

    [Fact]
    public void Sockets_used_asynchronously_and_dropped_undisposed_are_collected_and_their_descriptors_closed()
    {
        using var context = Sockets.NewContext();
        using var router = new Socket(context, SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");

        // Sockets other tests dropped undisposed are finalized first: their descriptors closing during the counts
        // below would hide this test's own (one collection finalizes a socket's collector, the next its handle).
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        int before = OpenDescriptors();

        // Held until their descriptors are counted: a collection that another test's work sets off meanwhile would
        // otherwise close some of them before the count.
        Socket?[] dealers = UseAsynchronously(context, router.LastEndpoint);
        // Every dealer's hello reached the router, so every connection is made: each holds its descriptors (a dealer's
        // send completes once queued, before its connection exists), and the count below does not race the connects.
        using (var hello = new MultipartMessage())
        {
            for (int i = 0; i < DealerCount; i++)
            {
                Assert.True(router.TryRecvMultipart(hello, Timeouts.Wait), $"hello {i} did not reach the router");
            }
        }

        int whileOpen = OpenDescriptors();
        Assert.True(whileOpen - before >= DealerCount, $"{DealerCount} connected sockets hold descriptors ({before} -> {whileOpen})");
        WeakReference[] dropped = Drop(dealers);

        // A collection finalizes each socket's collector (which unregisters it), the next its native handle.
        var deadline = DateTime.UtcNow + Timeouts.Wait;
        while ((dropped.Any(w => w.IsAlive) || OpenDescriptors() - before > DealerCount / 5) && DateTime.UtcNow < deadline)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            Thread.Yield();
        }

        Assert.DoesNotContain(dropped, w => w.IsAlive);
        int after = OpenDescriptors();
        Assert.True(after - before <= DealerCount / 5, $"descriptors {before} -> {whileOpen} -> {after}: the dropped sockets were not closed");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Socket?[] UseAsynchronously(Context context, string endpoint)
    {
        var dealers = new Socket?[DealerCount];
        for (int i = 0; i < DealerCount; i++)
        {
            var dealer = new Socket(context, SocketType.Dealer);
            dealer.Connect(endpoint);
            Assert.True(dealer.SendAsync($"hello {i}").AsTask().Wait(Timeouts.Wait), "the async send completed");
            if (i % 2 == 0)
            {
                // Half of them also leave a receive parked, never completed and never awaited.
                _ = dealer.RecvAsync(new byte[16]);
            }

            dealers[i] = dealer;
        }

        return dealers;
    }

    /// <summary>Replaces each socket in <paramref name="dealers"/> with a weak reference to it: nothing else holds them.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference[] Drop(Socket?[] dealers)
    {
        var dropped = new WeakReference[dealers.Length];
        for (int i = 0; i < dealers.Length; i++)
        {
            dropped[i] = new WeakReference(dealers[i]);
            dealers[i] = null;
        }

        return dropped;
    }

    private static int OpenDescriptors() => Directory.GetFiles("/proc/self/fd").Length;
}
