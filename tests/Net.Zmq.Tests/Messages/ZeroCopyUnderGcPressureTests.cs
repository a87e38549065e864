using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class ZeroCopyUnderGcPressureTests : ContextPerTest
{
    private const int MessageCount = 10_000;

    [Fact]
    public async Task Ten_thousand_zero_copy_messages_are_each_freed_exactly_once_and_arrive_intact_while_the_GC_runs()
    {
        var pointers = new nint[MessageCount];
        var freeCalls = new int[MessageCount];
        int freed = 0;
        int wrongPointers = 0;
        using var allFreed = new ManualResetEventSlim();

        using var push = Sockets.New(Context, SocketType.Push);
        using var pull = Sockets.New(Context, SocketType.Pull);
        pull.Bind(Endpoints.EphemeralTcp);
        push.Connect(pull.LastEndpoint);

        Task<List<string>> receiver = Waits.Run(() =>
        {
            var problems = new List<string>();
            using var frame = new Message();
            for (int i = 0; i < MessageCount; i++)
            {
                pull.Recv(frame);
                string? problem = Check(frame.Data, i);
                if (problem is not null && problems.Count < 10)
                {
                    problems.Add(problem);
                }
            }

            return problems;
        });

        var garbage = new List<object>();
        for (int i = 0; i < MessageCount; i++)
        {
            int size = SizeOf(i);
            nint data = AllocateFilled(size, i);
            pointers[i] = data;
            int index = i;

            // A fresh delegate per message: only Net.Zmq keeps it alive until libzmq calls it.
            using var message = new Message(data, size, released =>
            {
                if (released != pointers[index])
                {
                    Interlocked.Increment(ref wrongPointers);
                }

                if (Interlocked.Increment(ref freeCalls[index]) == 1)
                {
                    FreeNative(pointers[index]);
                }

                if (Interlocked.Increment(ref freed) == MessageCount)
                {
                    allFreed.Set();
                }
            });
            Assert.True(push.Send(message));

            garbage.Add(new byte[256]);
            garbage.Add(new string('g', 64));
            if (i % 500 == 499)
            {
                garbage.Clear();
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            }
        }

        Assert.True(await Waits.FinishesAsync(receiver), "the receiver did not get every message in time");
        Assert.Empty(await receiver);
        Assert.True(allFreed.Wait(Timeouts.Wait), $"only {Volatile.Read(ref freed)} of {MessageCount} free callbacks ran");
        Assert.Equal(0, Volatile.Read(ref wrongPointers));
        Assert.All(freeCalls, calls => Assert.Equal(1, calls));
    }

    private static int SizeOf(int index) => index % 10 == 0 ? 9000 + index : 8 + (index % 60);

    private static unsafe nint AllocateFilled(int size, int index)
    {
        nint data = (nint)NativeMemory.Alloc((nuint)size);
        Fill(new Span<byte>((void*)data, size), index);
        return data;
    }

    private static unsafe void FreeNative(nint data) => NativeMemory.Free((void*)data);

    private static void Fill(Span<byte> data, int index)
    {
        BitConverter.TryWriteBytes(data, index);
        for (int i = sizeof(int); i < data.Length; i++)
        {
            data[i] = (byte)(index + i);
        }
    }

    private static string? Check(ReadOnlySpan<byte> data, int expectedIndex)
    {
        if (data.Length != SizeOf(expectedIndex))
        {
            return $"message {expectedIndex}: {data.Length} bytes instead of {SizeOf(expectedIndex)}";
        }

        int index = BitConverter.ToInt32(data);
        if (index != expectedIndex)
        {
            return $"message {expectedIndex} arrived as {index}";
        }

        for (int i = sizeof(int); i < data.Length; i++)
        {
            if (data[i] != (byte)(index + i))
            {
                return $"message {expectedIndex}: byte {i} is {data[i]}";
            }
        }

        return null;
    }
}
