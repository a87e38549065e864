using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Lifetime;

/// <summary>
/// libzmq sockets are not thread-safe: two calls at once corrupt them (crashes, assertions, heap corruption). A second
/// thread calling a socket while another thread is inside a call gets an <see cref="InvalidOperationException"/> that
/// names the fix, and the socket stays usable.
/// </summary>
public sealed class ConcurrentUseTests(ITestOutputHelper output)
{
    // Calls one thread makes in a row before it blocks in the socket or hands it on: a thread that keeps calling a
    // socket is the case a cheaper claim would favour, and the socket must stay as safe for it.
    private const int CallsInARow = 100;

    [Fact]
    public async Task A_thread_calling_a_socket_while_another_is_inside_a_call_gets_InvalidOperationException()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Dealer);
        var (router, dealer) = pair;
        dealer.Send("hello");
        byte[] dealerId = router.RecvMultipart()[0].ToArray();

        // One thread blocks in a receive (nothing is sent to the dealer yet) while this one keeps calling the socket.
        // Whichever of the two comes second is refused: this thread while the other is inside its receive, or the
        // receive when it starts while this thread is inside a send.
        InvalidOperationException? refused = null;
        Task<string> receiving = Waits.Run(() => dealer.RecvString());
        var deadline = DateTime.UtcNow + Timeouts.Wait;
        while (refused is null && DateTime.UtcNow < deadline)
        {
            if (receiving.IsFaulted)
            {
                refused = Assert.IsType<InvalidOperationException>(receiving.Exception!.InnerException);
                break;
            }

            try
            {
                dealer.Send("from a second thread", SendFlags.DontWait);
            }
            catch (InvalidOperationException ex)
            {
                refused = ex;
            }
        }

        Assert.NotNull(refused);
        Assert.Contains("not thread-safe", refused.Message, StringComparison.Ordinal);
        Assert.Contains("one thread at a time", refused.Message, StringComparison.Ordinal);

        // The socket is still whole: a receive (the same one, or a new one if it was refused) gets the answer.
        if (receiving.IsFaulted)
        {
            receiving = Waits.Run(() => dealer.RecvString());
        }

        router.Send(dealerId, SendFlags.SendMore);
        router.Send("answer");
        Assert.Equal("answer", await receiving.WaitAsync(Timeouts.Wait));

        // Once the call is over, any thread may use the socket again.
        await Waits.Run(() => dealer.Send("after"));
        string last;
        do
        {
            using MultipartMessage message = router.RecvMultipart();
            last = message[^1].ToString();
        }
        while (last != "after");
    }

    [Fact]
    public async Task Two_threads_sending_at_once_never_crash_the_process_and_every_refused_send_says_why()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (pull, push) =>
        {
            push.SetOption(SocketOption.SendHighWatermark, 0);
            pull.SetOption(SocketOption.ReceiveHighWatermark, 0);
        });
        var (pull, push) = pair;
        const int PerThread = 50_000;

        int[] sent = new int[2];
        int refusals = 0;
        Task[] senders = [.. Enumerable.Range(0, 2).Select(t => Waits.Run(() =>
        {
            for (int i = 0; i < PerThread; i++)
            {
                try
                {
                    push.Send("x"u8);
                    sent[t]++;
                }
                catch (InvalidOperationException)
                {
                    Interlocked.Increment(ref refusals);
                }
            }
        }))];
        await Task.WhenAll(senders).WaitAsync(TimeSpan.FromSeconds(60));

        int delivered = 0;
        Span<byte> buffer = stackalloc byte[4];
        while (pull.TryRecv(buffer, out _))
        {
            delivered++;
        }

        Assert.Equal(sent[0] + sent[1], delivered);
        Assert.Equal(2 * PerThread, delivered + refusals);
    }

    /// <summary>
    /// A thread that called a socket many times in a row, then blocked inside a receive (seen in the kernel's thread
    /// state, so it is inside libzmq, not about to enter it): a second thread is refused, and takes the socket over after.
    /// </summary>
    [Fact]
    public async Task A_second_thread_is_refused_while_a_thread_that_made_many_calls_in_a_row_is_inside_one()
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Task<string> receiving = BlockedThreads.RunUntilBlocked(() =>
        {
            byte[] buffer = new byte[16];
            for (int i = 0; i < CallsInARow; i++)
            {
                Assert.Equal(-1, pull.Recv(buffer, RecvFlags.DontWait)); // nothing queued yet
            }

            return pull.RecvString();
        }, out int managedId);

        var refused = Assert.Throws<InvalidOperationException>(() => pull.Recv(new byte[16], RecvFlags.DontWait));
        Assert.Contains($"in use by thread {managedId} ", refused.Message, StringComparison.Ordinal);

        push.Send("answer");
        Assert.Equal("answer", await receiving.WaitAsync(Timeouts.Wait));
        for (int i = 0; i < CallsInARow; i++)
        {
            push.Send($"{i}");
            Assert.Equal($"{i}", pull.RecvString());
        }
    }

    /// <summary>A socket handed from thread to thread, each making many calls in a row, works for every thread.</summary>
    [Fact]
    public async Task A_socket_handed_between_threads_that_each_make_many_calls_in_a_row_works_for_each()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        for (int round = 0; round < 20; round++)
        {
            int first = round * CallsInARow;
            await Waits.Run(() =>
            {
                for (int i = first; i < first + CallsInARow; i++)
                {
                    push.Send($"{i}");
                    Assert.Equal($"{i}", pull.RecvString());
                }
            }).WaitAsync(Timeouts.Wait);
        }
    }

    /// <summary>
    /// The single-frame paths end their call without a <c>finally</c>; a call that throws or gives up must still hand
    /// the socket back, or the next thread to use it would be refused as if the failed call were still running.
    /// </summary>
    [Fact]
    public async Task A_call_that_throws_or_gives_up_leaves_the_socket_free_for_another_thread()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new Message();
        byte[] buffer = new byte[16];
        Action[] failures =
        [
            () => Assert.Throws<ZmqException>(() => pull.Send(new byte[] { 1 })), // ENOTSUP: a PULL socket cannot send
            () =>
            {
                using var one = new Message(new byte[] { 1 });
                Assert.Throws<ZmqException>(() => pull.Send(one));
            },
            () => Assert.Throws<ZmqException>(() => pull.TrySend(new byte[] { 1 }, TimeSpan.FromMilliseconds(1))),
            () => Assert.Equal(-1, pull.Recv(buffer, RecvFlags.DontWait)), // nothing queued: EAGAIN
            () => Assert.False(pull.Recv(message, RecvFlags.DontWait)),
            () => Assert.False(pull.TryRecv(buffer, TimeSpan.FromMilliseconds(1), out _)),
            () => Assert.False(pull.TryRecv(message, TimeSpan.FromMilliseconds(1))),
        ];

        // The failing thread stays alive while another one receives, so the receiver cannot reuse its thread id.
        await Waits.Run(() =>
        {
            for (int i = 0; i < failures.Length; i++)
            {
                failures[i]();
                push.Send(new[] { (byte)i });
                Task<int> received = Waits.Run(() => pull.Recv(buffer));
                Assert.True(received.Wait(Timeouts.Wait), $"the receive after failure {i} did not finish");
                Assert.Equal(1, received.Result);
                Assert.Equal(i, buffer[0]);
            }
        }).WaitAsync(Timeouts.Wait);
    }
}
