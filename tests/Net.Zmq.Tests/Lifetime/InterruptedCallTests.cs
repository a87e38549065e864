using System.Runtime.InteropServices;

namespace Net.Zmq.Tests.Lifetime;

/// <summary>
/// A signal delivered to a thread blocked in libzmq makes its poll return EINTR; Net.Zmq retries, so the caller
/// sees the message, not an error. Linux only: the signal is aimed at the blocked thread with tgkill.
/// </summary>
public sealed partial class InterruptedCallTests
{
    private const int SysGettid = 186;   // x86_64
    private const int SysTgkill = 234;   // x86_64
    private const int SigWinch = 28;     // given a no-op handler below

    [Fact]
    public void A_blocking_receive_interrupted_by_a_signal_still_returns_the_message()
    {
        if (!OperatingSystem.IsLinux() || RuntimeInformation.ProcessArchitecture != Architecture.X64)
        {
            return; // syscall numbers above are for Linux x86_64
        }

        // With a handler installed the signal interrupts system calls (an ignored signal would not).
        using var handler = PosixSignalRegistration.Create(PosixSignal.SIGWINCH, _ => { });
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.ReceiveTimeout, 10_000);
        pull.Bind($"inproc://eintr-{Guid.NewGuid():N}");
        push.Connect(pull.LastEndpoint);

        int tid = 0;
        using var started = new ManualResetEventSlim();
        string? received = null;
        Exception? failure = null;
        var receiver = new Thread(() =>
        {
            tid = (int)Syscall(SysGettid);
            started.Set();
            try
            {
                received = pull.RecvString();
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        });
        receiver.Start();
        Assert.True(started.Wait(TimeSpan.FromSeconds(5)));
        Assert.True(WaitUntilSleepingInPoll(tid), "the receiver never blocked in poll");

        // Interrupt the blocked poll a few times, checking after each that the thread went back to waiting.
        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(0, Syscall(SysTgkill, Environment.ProcessId, tid, SigWinch));
            Assert.True(WaitUntilSleepingInPoll(tid), "the receiver did not resume waiting after the signal");
        }

        push.Send("after the signals");
        Assert.True(receiver.Join(TimeSpan.FromSeconds(5)));
        Assert.Null(failure);
        Assert.Equal("after the signals", received);
    }

    private static bool WaitUntilSleepingInPoll(int tid)
    {
        var deadline = DateTime.UtcNow.AddSeconds(5);
        while (DateTime.UtcNow < deadline)
        {
            string wchan = File.ReadAllText($"/proc/self/task/{tid}/wchan");
            string stat = File.ReadAllText($"/proc/self/task/{tid}/stat");
            char state = stat[stat.LastIndexOf(')') + 2];
            if (state == 'S' && wchan.Contains("poll", StringComparison.Ordinal))
            {
                return true;
            }

            Thread.Yield();
        }

        return false;
    }

    [LibraryImport("libc", EntryPoint = "syscall")]
    private static partial long Syscall(long number);

    [LibraryImport("libc", EntryPoint = "syscall")]
    private static partial long Syscall(long number, long a, long b, long c);
}
