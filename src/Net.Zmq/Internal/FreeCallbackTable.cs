using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Net.Zmq.Internal;

/// <summary>
/// Holds the free callbacks of zero-copy messages while libzmq owns their memory. libzmq gets a static
/// unmanaged function and, as its hint, the number of a slot in this table: taking and returning a slot is one
/// compare-and-swap each on a lock-free free list, cheaper than allocating a GCHandle per message.
/// </summary>
internal static unsafe class FreeCallbackTable
{
    private const int ChunkShift = 10;
    private const int ChunkSize = 1 << ChunkShift;
    private const int NoSlot = -1;

    private static readonly object s_growLock = new();
    private static volatile Action<nint>?[][] s_callbacks = [];
    private static volatile int[][] s_next = [];

    // Head of the free list: low 32 bits the slot (or -1), high 32 bits a version that defeats ABA.
    private static long s_head = NoSlot & 0xFFFFFFFFL;

    /// <summary>The function libzmq calls when it no longer needs a zero-copy message's data.</summary>
    internal static delegate* unmanaged<nint, nint, void> FreeFunction => &OnFree;

    /// <summary>Stores <paramref name="callback"/> and returns the slot to pass to libzmq as the hint.</summary>
    internal static nint Register(Action<nint> callback)
    {
        int slot = Pop();
        s_callbacks[slot >> ChunkShift][slot & (ChunkSize - 1)] = callback;
        return slot;
    }

    /// <summary>Takes the callback back out without running it (libzmq refused the message).</summary>
    internal static void Unregister(nint hint) => Take((int)hint);

    [UnmanagedCallersOnly]
    private static void OnFree(nint data, nint hint)
    {
        Action<nint> callback = Take((int)hint);
        try
        {
            callback(data);
        }
        catch (Exception ex)
        {
            // This runs on a libzmq I/O thread that cannot unwind a managed exception; the callback's
            // contract (Message's constructor) says it must not throw. Reported, as nobody waits for it.
            Trace.TraceError($"Net.Zmq: the free callback of a zero-copy Message threw; the library goes on. {ex}");
        }
    }

    private static Action<nint> Take(int slot)
    {
        ref Action<nint>? entry = ref s_callbacks[slot >> ChunkShift][slot & (ChunkSize - 1)];
        Action<nint> callback = entry!;
        entry = null;
        Push(slot);
        return callback;
    }

    private static int Pop()
    {
        while (true)
        {
            long head = Volatile.Read(ref s_head);
            int slot = (int)head;
            if (slot == NoSlot)
            {
                Grow();
                continue;
            }

            int next = s_next[slot >> ChunkShift][slot & (ChunkSize - 1)];
            long newHead = (head & ~0xFFFFFFFFL) + (1L << 32) | (uint)next;
            if (Interlocked.CompareExchange(ref s_head, newHead, head) == head)
            {
                return slot;
            }
        }
    }

    private static void Push(int slot)
    {
        ref int link = ref s_next[slot >> ChunkShift][slot & (ChunkSize - 1)];
        while (true)
        {
            long head = Volatile.Read(ref s_head);
            link = (int)head;
            long newHead = (head & ~0xFFFFFFFFL) + (1L << 32) | (uint)slot;
            if (Interlocked.CompareExchange(ref s_head, newHead, head) == head)
            {
                return;
            }
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Grow()
    {
        lock (s_growLock)
        {
            if ((int)Volatile.Read(ref s_head) != NoSlot)
            {
                return;
            }

            int chunkIndex = s_callbacks.Length;
            var next = new int[ChunkSize];
            int first = chunkIndex << ChunkShift;
            for (int i = 0; i < ChunkSize; i++)
            {
                next[i] = i + 1 < ChunkSize ? first + i + 1 : NoSlot;
            }

            // Publish the storage before any slot in it can be handed out.
            s_callbacks = [.. s_callbacks, new Action<nint>?[ChunkSize]];
            s_next = [.. s_next, next];

            // Splice the new chain in front of whatever was freed meanwhile.
            while (true)
            {
                long head = Volatile.Read(ref s_head);
                next[ChunkSize - 1] = (int)head;
                long newHead = (head & ~0xFFFFFFFFL) + (1L << 32) | (uint)first;
                if (Interlocked.CompareExchange(ref s_head, newHead, head) == head)
                {
                    break;
                }
            }
        }
    }

    /// <summary>Number of callbacks registered and not yet run (for tests).</summary>
    internal static int PendingCount
    {
        get
        {
            int count = 0;
            foreach (Action<nint>?[] chunk in s_callbacks)
            {
                foreach (Action<nint>? callback in chunk)
                {
                    if (callback is not null)
                    {
                        count++;
                    }
                }
            }

            return count;
        }
    }
}
