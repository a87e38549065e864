using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Net.Zmq.Soak.Scenarios;

/// <summary>
/// Zero-copy messages (<see cref="Message(nint, int, Action{nint})"/>) sent while another thread forces garbage
/// collections. Each buffer carries its index and a pattern; its free callback counts the call and overwrites the
/// buffer with a poison byte before it is really freed, later, from a quarantine. A receiver that ever reads poison
/// or a broken pattern has read memory libzmq had already released.
/// </summary>
public static unsafe class ZeroCopyScenario
{
    private const byte Poison = 0xDE;
    private const int QuarantineSize = 4096;
    private const int Batch = 1000;

    /// <summary>Sends <paramref name="messages"/> zero-copy frames, half over inproc and half over loopback TCP.</summary>
    public static ScenarioResult Run(int messages)
    {
        var clock = Stopwatch.StartNew();
        var state = new FreeState(messages);
        long collections = GC.CollectionCount(2);
        using var stopCollecting = new CancellationTokenSource();
        var collector = new Thread(() =>
        {
            while (!stopCollecting.IsCancellationRequested)
            {
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                Thread.Sleep(1);
            }
        })
        { IsBackground = true, Name = "soak gc" };
        collector.Start();

        long badFrames;
        bool allFreed;
        try
        {
            using var context = new Context { DefaultLinger = TimeSpan.FromSeconds(5) };
            int half = messages / 2;
            badFrames = Stream(context, "inproc://netzmq-soak-zero-copy", state, 0, half)
                      + Stream(context, "tcp://127.0.0.1:*", state, half, messages);
            allFreed = state.WaitForAll(TimeSpan.FromSeconds(30));
        }
        finally
        {
            stopCollecting.Cancel();
            collector.Join();
            state.ReleaseQuarantine();
        }

        clock.Stop();
        (long never, long twice) = state.CountWrongCalls();
        string figures = $"{messages:N0} messages, {GC.CollectionCount(2) - collections:N0} forced gen-2 collections during the run; " +
                         $"free callbacks: {state.Calls:N0} ({never} never, {twice} more than once, {state.WrongPointers} with a wrong or already freed pointer); " +
                         $"{badFrames} frames with poison or a broken pattern";
        bool passed = allFreed && never == 0 && twice == 0 && state.WrongPointers == 0 && badFrames == 0;
        return new ScenarioResult("Zero-copy under GC", passed, figures, clock.Elapsed);
    }

    private static long Stream(Context context, string endpoint, FreeState state, int from, int to)
    {
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.ReceiveTimeout, 30_000);
        push.SetOption(SocketOption.SendTimeout, 30_000);
        pull.Bind(endpoint);
        push.Connect(pull.LastEndpoint);

        long bad = 0;
        Exception? failure = null;
        var receiver = new Thread(() =>
        {
            try
            {
                // One reused message: each receive releases the previous frame, which runs its free callback
                // on this thread for inproc.
                using var frame = new Message();
                for (int i = from; i < to; i++)
                {
                    pull.Recv(frame);
                    if (!IsIntact(frame.Data, i))
                    {
                        bad++;
                    }
                }
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        })
        { IsBackground = true, Name = "soak zero-copy pull" };
        receiver.Start();

        for (int start = from; start < to; start += Batch)
        {
            // A fresh delegate per batch, referenced by nothing but Net.Zmq while libzmq holds the buffers.
            int batchStart = start;
            Action<nint> free = data => state.Freed(data, batchStart);
            for (int i = start; i < Math.Min(to, start + Batch); i++)
            {
                int size = SizeOf(i);
                nint data = (nint)NativeMemory.Alloc((nuint)size);
                Fill(new Span<byte>((void*)data, size), i);
                state.Allocated(i, data);
                using var message = new Message(data, size, free);
                push.Send(message);
            }
        }

        if (!receiver.Join(TimeSpan.FromSeconds(60)) || failure is not null)
        {
            throw new InvalidOperationException($"The zero-copy receiver on {endpoint} failed or hung.", failure);
        }

        return bad;
    }

    private static int SizeOf(int index) => index % 16 == 0 ? 16_384 + index % 1000 : 64 + index % 200;

    private static void Fill(Span<byte> data, int index)
    {
        BinaryPrimitives.WriteInt32LittleEndian(data, index);
        for (int i = sizeof(int); i < data.Length; i++)
        {
            data[i] = Pattern(index, i);
        }
    }

    private static byte Pattern(int index, int position)
    {
        byte value = (byte)(index * 31 + position);
        return value == Poison ? (byte)0 : value;
    }

    private static bool IsIntact(ReadOnlySpan<byte> data, int expected)
    {
        if (data.Length != SizeOf(expected) || BinaryPrimitives.ReadInt32LittleEndian(data) != expected)
        {
            return false;
        }

        for (int i = sizeof(int); i < data.Length; i++)
        {
            if (data[i] != Pattern(expected, i))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Counts free calls per buffer and keeps the last freed buffers poisoned before really freeing them.</summary>
    private sealed class FreeState(int messages)
    {
        private readonly int[] _calls = new int[messages];
        private readonly nint[] _pointers = new nint[messages];
        private readonly nint[] _quarantine = new nint[QuarantineSize];
        private readonly Lock _quarantineLock = new();
        private readonly ManualResetEventSlim _allCalled = new();
        private int _quarantineNext;
        private long _total;
        private long _wrongPointers;

        public long Calls => Interlocked.Read(ref _total);

        public long WrongPointers => Interlocked.Read(ref _wrongPointers);

        public void Allocated(int index, nint data) => _pointers[index] = data;

        public void Freed(nint data, int batchStart)
        {
            int index = BinaryPrimitives.ReadInt32LittleEndian(new ReadOnlySpan<byte>((void*)data, sizeof(int)));
            // A second call for the same buffer finds poison here, so it is counted as a wrong call.
            if ((uint)index >= (uint)_calls.Length || _pointers[index] != data || index < batchStart || index >= batchStart + Batch)
            {
                Interlocked.Increment(ref _wrongPointers);
                return;
            }

            if (Interlocked.Increment(ref _calls[index]) == 1)
            {
                new Span<byte>((void*)data, SizeOf(index)).Fill(Poison);
                nint evicted;
                lock (_quarantineLock)
                {
                    evicted = _quarantine[_quarantineNext];
                    _quarantine[_quarantineNext] = data;
                    _quarantineNext = (_quarantineNext + 1) % QuarantineSize;
                }

                NativeMemory.Free((void*)evicted);
            }

            if (Interlocked.Increment(ref _total) == _calls.Length)
            {
                _allCalled.Set();
            }
        }

        public bool WaitForAll(TimeSpan timeout) => _allCalled.Wait(timeout);

        public (long Never, long Twice) CountWrongCalls()
        {
            long never = 0, twice = 0;
            foreach (int calls in _calls)
            {
                never += calls == 0 ? 1 : 0;
                twice += calls > 1 ? 1 : 0;
            }

            return (never, twice);
        }

        public void ReleaseQuarantine()
        {
            lock (_quarantineLock)
            {
                foreach (nint data in _quarantine)
                {
                    NativeMemory.Free((void*)data);
                }

                Array.Clear(_quarantine);
            }
        }
    }
}
