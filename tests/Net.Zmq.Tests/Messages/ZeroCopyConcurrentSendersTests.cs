using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public class ZeroCopyConcurrentSendersTests
{
    private const int Senders = 4;
    private const int PerSender = 2500;
    private const int Total = Senders * PerSender;

    [Fact]
    public async Task Zero_copy_messages_from_several_threads_are_each_freed_exactly_once()
    {
        var freeCalls = new int[Total];
        int freed = 0;
        using var allFreed = new ManualResetEventSlim();
        using var context = Sockets.NewLingeringContext();
        using var pull = Sockets.New(context, SocketType.Pull);
        pull.Bind(Endpoints.EphemeralTcp);
        string endpoint = pull.LastEndpoint;

        Task<int> receiver = Waits.Run(() =>
        {
            var seen = new bool[Total];
            int distinct = 0;
            using var frame = new Message();
            for (int i = 0; i < Total; i++)
            {
                pull.Recv(frame);
                int id = BitConverter.ToInt32(frame.Data);
                if (frame.Size == 32 && (uint)id < Total && !seen[id])
                {
                    seen[id] = true;
                    distinct++;
                }
            }

            return distinct;
        });

        Task[] senders = Enumerable.Range(0, Senders).Select(sender => Waits.Run(() =>
        {
            using var push = Sockets.New(context, SocketType.Push);
            push.Connect(endpoint);
            for (int i = 0; i < PerSender; i++)
            {
                int id = (sender * PerSender) + i;
                nint data = Allocate(32, id);
                using var message = new Message(data, 32, released =>
                {
                    if (Interlocked.Increment(ref freeCalls[id]) == 1)
                    {
                        Release(released);
                    }

                    if (Interlocked.Increment(ref freed) == Total)
                    {
                        allFreed.Set();
                    }
                });
                push.Send(message);
            }
        })).ToArray();

        Assert.True(await Waits.FinishesAsync(Task.WhenAll(senders)), "the senders did not finish");
        await Task.WhenAll(senders);
        Assert.True(await Waits.FinishesAsync(receiver), "the receiver did not get every message");
        Assert.Equal(Total, await receiver);
        Assert.True(allFreed.Wait(Timeouts.Wait), $"only {Volatile.Read(ref freed)} of {Total} free callbacks ran");
        Assert.All(freeCalls, calls => Assert.Equal(1, calls));
    }

    private static unsafe nint Allocate(int size, int id)
    {
        nint data = (nint)NativeMemory.AllocZeroed((nuint)size);
        *(int*)data = id;
        return data;
    }

    private static unsafe void Release(nint data) => NativeMemory.Free((void*)data);
}
