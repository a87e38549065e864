using System.Collections.Concurrent;
using System.ComponentModel;
using System.Numerics;
using System.Runtime.InteropServices;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// Pools native buffers for messages: <see cref="Rent"/> returns a zero-copy <see cref="Message"/> over a pooled
/// block, and libzmq's free callback puts the block back when it is done with it (after the send, or when the
/// message is disposed unsent), so nothing is returned by hand.
/// </summary>
/// <remarks>
/// Kept for code written against the first Net.Zmq. Measure before choosing it: in our benchmarks a reused
/// <c>ArrayPool&lt;byte&gt;</c> buffer or a plain <see cref="Message"/> is as fast or faster at most sizes, and a pool
/// adds synchronisation under bursts. Blocks are powers of two from 64 bytes to 4 MiB; larger messages are not
/// pooled. At most <see cref="MaxBlocksPerSize"/> idle blocks are kept per size; the rest are freed.
/// </remarks>
[EditorBrowsable(EditorBrowsableState.Never)]
[Obsolete("Kept for code written for the first Net.Zmq. Use Recv(Message, RecvFlags) with one reused Message, or ArrayPool<byte>.Shared with Recv(Span<byte>, RecvFlags), instead.")]
public sealed unsafe class MessagePool
{
    /// <summary>The largest idle block count kept per block size.</summary>
    public const int MaxBlocksPerSize = 256;

    private const int MinShift = 6;          // 64 bytes
    private const int MaxShift = 22;         // 4 MiB
    private const int HeaderSize = 16;       // keeps the data 16-byte aligned; holds the block's size class
    private const int Unpooled = -1;

    private static readonly Action<nint> s_return = ReturnBlock;
    private static readonly ConcurrentDictionary<nint, MessagePool> s_owners = new();
    private readonly ConcurrentQueue<nint>[] _idle = new ConcurrentQueue<nint>[MaxShift - MinShift + 1];
    private long _rented;
    private long _reused;

    /// <summary>Creates an empty pool.</summary>
    public MessagePool()
    {
        for (int i = 0; i < _idle.Length; i++)
        {
            _idle[i] = new ConcurrentQueue<nint>();
        }
    }

    /// <summary>The process-wide pool.</summary>
    public static MessagePool Shared { get; } = new();

    /// <summary>How many messages were rented.</summary>
    public long RentedCount => Interlocked.Read(ref _rented);

    /// <summary>How many rentals reused an idle block instead of allocating one.</summary>
    public long ReusedCount => Interlocked.Read(ref _reused);

    /// <summary>How many idle blocks the pool holds now.</summary>
    public int IdleCount => _idle.Sum(queue => queue.Count);

    /// <summary>Returns a message of exactly <paramref name="size"/> bytes over a pooled native block; fill it through <see cref="Message.Data"/>.</summary>
    /// <remarks>
    /// <b>Warning:</b> a span from <see cref="Message.Data"/> must not be used once the message is sent or disposed: the
    /// block goes back to the pool and the next rental reuses it.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public Message Rent(int size)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        NativeLibraryLoader.EnsureLoaded();
        Interlocked.Increment(ref _rented);
        int sizeClass = SizeClass(size);
        byte* block;
        if (sizeClass != Unpooled && _idle[sizeClass].TryDequeue(out nint idle))
        {
            Interlocked.Increment(ref _reused);
            block = (byte*)idle;
        }
        else
        {
            int capacity = sizeClass == Unpooled ? size : 1 << (sizeClass + MinShift);
            block = (byte*)NativeMemory.AlignedAlloc((nuint)(HeaderSize + capacity), HeaderSize);
            *(int*)block = sizeClass;
            if (sizeClass != Unpooled)
            {
                s_owners[(nint)block] = this;
            }
        }

        return new Message((nint)(block + HeaderSize), size, s_return);
    }

    /// <summary>Frees every idle block.</summary>
    public void Clear()
    {
        foreach (ConcurrentQueue<nint> queue in _idle)
        {
            while (queue.TryDequeue(out nint block))
            {
                s_owners.TryRemove(block, out _);
                NativeMemory.AlignedFree((void*)block);
            }
        }
    }

    private static int SizeClass(int size)
    {
        if (size > 1 << MaxShift)
        {
            return Unpooled;
        }

        int shift = Math.Max(MinShift, 32 - BitOperations.LeadingZeroCount((uint)Math.Max(size - 1, 1)));
        return shift - MinShift;
    }

    // Runs on a libzmq thread when libzmq no longer needs the bytes.
    private static void ReturnBlock(nint data)
    {
        nint block = data - HeaderSize;
        int sizeClass = *(int*)block;
        if (sizeClass != Unpooled && s_owners.TryGetValue(block, out MessagePool? pool) && pool._idle[sizeClass].Count < MaxBlocksPerSize)
        {
            pool._idle[sizeClass].Enqueue(block);
            return;
        }

        s_owners.TryRemove(block, out _);
        NativeMemory.AlignedFree((void*)block);
    }
}
