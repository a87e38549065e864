using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// A <see cref="Message"/> is used by one call at a time: a second thread's send or receive with the same message,
/// while another call has it, gets an <see cref="InvalidOperationException"/> instead of racing libzmq on one
/// <c>zmq_msg_t</c> (before the message was claimed per call, receiving into it from two sockets at once ended in a
/// double free or EFAULT).
/// </summary>
public sealed class MessageUsedByTwoThreadsTests(ITestOutputHelper output)
{
    [Fact]
    public async Task A_receive_into_a_message_another_thread_is_receiving_into_is_refused()
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        using var first = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var second = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var shared = new Message();
        Task<bool> blocked = BlockedThreads.RunUntilBlocked(() => first.Binder.Recv(shared), out _);

        second.Connector.Send("two");
        var refused = Assert.Throws<InvalidOperationException>(() => second.Binder.TryRecv(shared, Timeouts.Wait));
        Assert.Contains("Message is in use by another call", refused.Message, StringComparison.Ordinal);

        first.Connector.Send("one");
        Assert.True(await blocked.WaitAsync(Timeouts.Wait));
        Assert.Equal("one", shared.ToString());
        Assert.True(second.Binder.TryRecv(shared, Timeouts.Wait)); // nothing was lost: "two" still waits
        Assert.Equal("two", shared.ToString());
    }

    [Fact]
    public void Two_threads_receiving_into_one_message_from_two_sockets_never_crash() =>
        IsolatedProcess.Run(ReceiveIntoOneMessageFromTwoThreads, Timeouts.Wait * 4).AssertSucceeded();

    private static void ReceiveIntoOneMessageFromTwoThreads()
    {
        using var first = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var second = SocketPair.Open(SocketType.Pull, SocketType.Push);
        using var shared = new Message();
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(1.5));
        int refused = 0;
        var feeding = BackgroundWork.Start("push", () =>
        {
            var payload = new byte[100]; // beyond libzmq's inline size: each frame is a heap block to free
            while (!stop.IsCancellationRequested)
            {
                first.Connector.TrySend(payload, TimeSpan.FromMilliseconds(5));
                second.Connector.TrySend(payload, TimeSpan.FromMilliseconds(5));
            }
        });
        var other = BackgroundWork.Start("second receiver", () => refused += Receive(second.Binder, shared, stop.Token));
        refused += Receive(first.Binder, shared, stop.Token);
        other.Join(Timeouts.Wait);
        feeding.Join(Timeouts.Wait);
        Console.WriteLine($"refused: {refused}");
        Assert.True(refused > 0, "the two receivers never met on the message");
    }

    private static int Receive(Socket socket, Message shared, CancellationToken stop)
    {
        int refused = 0;
        while (!stop.IsCancellationRequested)
        {
            try
            {
                socket.TryRecv(shared);
            }
            catch (InvalidOperationException e) when (e.Message.Contains("Message is in use by another call", StringComparison.Ordinal))
            {
                refused++;
            }
        }

        return refused;
    }
}
