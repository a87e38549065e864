using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Lifetime;

/// <summary>
/// A signal delivered to a thread blocked in libzmq (receive, send at the high water mark, zmq_poll) makes its poll
/// return EINTR; Net.Zmq retries, so the caller sees the result, not an error. Linux only: the signal is aimed at
/// the blocked thread with tgkill.
/// </summary>
public sealed partial class InterruptedCallTests(ITestOutputHelper output)
{
    private const int SysTgkill = 234;   // x86_64
    private const int SigWinch = 28;     // given a no-op handler below

    /// <summary>Per call: sets up the blocked state, the blocking call, what unblocks it, and what it then returns.</summary>
    private static readonly Dictionary<string, Func<Socket, Socket, BlockedCall>> s_calls = new()
    {
        ["Recv"] = (push, pull) => new(pull.RecvString, () => push.Send("after the signals"), "after the signals"),
        ["Send at the high water mark"] = (push, pull) =>
        {
            while (push.Send("filler", SendFlags.DontWait))
            {
            }

            return new(() => push.Send("after the signals") ? "sent" : "not sent", () => pull.RecvString(), "sent");
        },
        ["Poll"] = (push, pull) => new(
            () =>
            {
                using var poller = new Poller(1);
                int index = poller.Add(pull, PollEvents.In);
                return $"{poller.Poll(10_000)} ready, readable: {poller.IsReadable(index)}";
            },
            () => push.Send("wake up"),
            "1 ready, readable: True"),
    };

    private sealed record BlockedCall(Func<string> Call, Action Unblock, string Expected);

    public static TheoryData<string> BlockingCalls => new(s_calls.Keys);

    [Theory]
    [MemberData(nameof(BlockingCalls))]
    public void A_blocking_call_interrupted_by_a_signal_is_retried_and_completes(string call)
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine("skipped: the syscall numbers used to aim the signal are Linux x86_64 ones");
            return;
        }

        // With a handler installed the signal interrupts system calls (an ignored signal would not).
        using var handler = PosixSignalRegistration.Create(PosixSignal.SIGWINCH, _ => { });
        using var context = Sockets.NewContext();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.ReceiveTimeout, 10_000);
        push.SetOption(SocketOption.SendTimeout, 10_000);
        push.SetOption(SocketOption.SendHighWatermark, 1);
        pull.SetOption(SocketOption.ReceiveHighWatermark, 1);
        pull.Bind($"inproc://eintr-{Guid.NewGuid():N}");
        push.Connect(pull.LastEndpoint);
        BlockedCall blockedCall = s_calls[call](push, pull);

        int tid = 0;
        using var started = new ManualResetEventSlim();
        string? result = null;
        Exception? failure = null;
        var blocked = new Thread(() =>
        {
            tid = BlockedThreads.CurrentKernelId();
            started.Set();
            try
            {
                result = blockedCall.Call();
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        });
        blocked.Start();
        Assert.True(started.Wait(TimeSpan.FromSeconds(5)));
        Assert.True(BlockedThreads.WaitUntilSleepingInPoll(tid), "the call never blocked in poll");

        // Interrupt the blocked poll a few times, checking after each that the thread went back to waiting.
        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(0, Syscall(SysTgkill, Environment.ProcessId, tid, SigWinch));
            Assert.True(BlockedThreads.WaitUntilSleepingInPoll(tid), "the call did not resume waiting after the signal");
        }

        blockedCall.Unblock();
        Assert.True(blocked.Join(TimeSpan.FromSeconds(5)));
        Assert.Null(failure);
        Assert.Equal(blockedCall.Expected, result);
    }

    [LibraryImport("libc", EntryPoint = "syscall")]
    private static partial long Syscall(long number, long a, long b, long c);
}
