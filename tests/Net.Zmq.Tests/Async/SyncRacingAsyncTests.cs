using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A synchronous call on a socket with a parked asynchronous one is serialised with it, never interleaved inside
/// libzmq: here another thread sends synchronously on a DEALER whose receive is parked.
/// </summary>
public sealed class SyncRacingAsyncTests(ITestOutputHelper output)
{
    private const int Messages = 3000;
    private const int InFlight = 50;

    [Fact]
    public async Task Sync_sends_on_a_dealer_with_a_parked_receive_lose_and_corrupt_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Dealer, SocketType.Dealer);
        Socket dealer = pair.Connector;
        Socket echo = pair.Binder;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        using var window = new SemaphoreSlim(InFlight);

        var echoing = BackgroundWork.Start("echo", () =>
        {
            using var message = new Message();
            for (int i = 0; i < Messages; i++)
            {
                Assert.True(echo.Recv(message));
                Assert.True(echo.Send(message));
            }
        });

        // A bounded window keeps the sender from blocking inside libzmq, holding the socket, while replies pile up.
        var sending = BackgroundWork.Start("sync sender", () =>
        {
            var payload = new byte[64];
            for (int i = 0; i < Messages; i++)
            {
                Assert.True(window.Wait(Timeouts.Wait), "the receiver stopped taking replies");
                payload.AsSpan().Fill((byte)i);
                BitConverter.TryWriteBytes(payload, i);
                Assert.True(dealer.Send(payload));
            }
        });

        // A failure on either thread ends the receives at once; Join then reports it.
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(timeout.Token, sending.Failed, echoing.Failed);
        var buffer = new byte[128];
        Exception? receiving = await Record.ExceptionAsync(() => Task.Run(async () =>
        {
            for (int i = 0; i < Messages; i++)
            {
                Assert.Equal(64, await dealer.RecvAsync(buffer, stop.Token));
                Assert.Equal(i, BitConverter.ToInt32(buffer));
                Assert.All(buffer[sizeof(int)..64], b => Assert.Equal((byte)i, b));
                window.Release();
            }
        }));

        sending.Join(Timeouts.Wait);
        echoing.Join(Timeouts.Wait);
        Assert.Null(receiving);
    }

    /// <summary>
    /// The first asynchronous call hands the socket over to its driver on its own thread; a synchronous call made on
    /// another thread meanwhile waits that out instead of being refused as a second thread's concurrent call.
    /// </summary>
    [Fact]
    public async Task A_sync_send_during_the_first_async_receive_is_not_refused()
    {
        for (int round = 0; round < 200; round++)
        {
            using var pair = SocketPair.Open(SocketType.Dealer, SocketType.Dealer);
            Socket dealer = pair.Connector;
            pair.Binder.Send("reply");
            int sends = 0;
            bool stop = false;
            var sending = BackgroundWork.Start("sync sender", () =>
            {
                var payload = new byte[8];
                while (!Volatile.Read(ref stop))
                {
                    dealer.Send(payload, SendFlags.DontWait); // false once the pipe is full: that is fine here
                    Interlocked.Increment(ref sends);
                }
            });

            SpinWait.SpinUntil(() => Volatile.Read(ref sends) > 0 || sending.Failed.IsCancellationRequested);
            Exception? receiving = await Record.ExceptionAsync(
                async () => Assert.Equal("reply", await dealer.RecvStringAsync(sending.Failed).AsTask().WaitAsync(Timeouts.Wait)));
            Volatile.Write(ref stop, true);
            sending.Join(Timeouts.Wait);
            Assert.Null(receiving);
        }
    }

    /// <param name="callsBefore">
    /// Calls the blocking thread makes first: none, or a run of them, the case a cheaper claim for a thread that keeps
    /// calling a socket would favour; the driver's creation must wait for the blocked receive either way.
    /// </param>
    [Theory]
    [InlineData(0)]
    [InlineData(100)]
    public async Task The_first_async_receive_waits_for_a_sync_receive_already_blocked_on_another_thread(int callsBefore)
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        for (int round = 0; round < 20; round++)
        {
            using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
            var (pull, push) = pair;

            // The blocking receive is inside libzmq (its thread sleeps in poll) before the socket has an async driver,
            // so it took no gate: the driver created by RecvAsync below must stay off libzmq until it returns, and the
            // first frame is the sync call's.
            Task<string> syncReceive = BlockedThreads.RunUntilBlocked(() =>
            {
                for (int i = 0; i < callsBefore; i++)
                {
                    Assert.False(pull.TryRecv(new byte[4], out _));
                }

                return pull.RecvString();
            }, out _);
            ValueTask<string> asyncReceive = pull.RecvStringAsync();

            push.Send("one");
            Assert.Equal("one", await syncReceive.WaitAsync(Timeouts.Wait));

            push.Send("two");
            Assert.Equal("two", await asyncReceive.AsTask().WaitAsync(Timeouts.Wait));
        }
    }
}
