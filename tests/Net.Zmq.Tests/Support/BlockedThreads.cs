using System.Runtime.InteropServices;

namespace Net.Zmq.Tests.Support;

/// <summary>
/// Knowing that a thread is blocked inside libzmq, not about to enter it: its kernel thread id, and a wait until the
/// kernel shows it sleeping in poll. Linux x86_64 only (the system call numbers are that platform's).
/// </summary>
internal static partial class BlockedThreads
{
    private const int SysGettid = 186; // x86_64

    public static bool Supported => OperatingSystem.IsLinux() && RuntimeInformation.ProcessArchitecture == Architecture.X64;

    /// <summary>What a test that needs <see cref="Supported"/> prints when it is not.</summary>
    public const string Unsupported = "skipped: telling that a call is blocked inside libzmq reads Linux x86_64 thread states";

    /// <summary>
    /// Runs <paramref name="call"/> on a dedicated thread and returns once that thread sleeps in poll: blocked inside
    /// libzmq, not about to enter it. Fails the test when it never gets there.
    /// </summary>
    /// <param name="managedThreadId">The managed id of the thread making the call.</param>
    public static Task<T> RunUntilBlocked<T>(Func<T> call, out int managedThreadId)
    {
        int tid = 0, managedId = 0;
        using var started = new ManualResetEventSlim();
        Task<T> task = Waits.Run(() =>
        {
            tid = CurrentKernelId();
            managedId = Environment.CurrentManagedThreadId;
            started.Set();
            return call();
        });
        Assert.True(started.Wait(Timeouts.Wait), "the thread for the blocking call did not start");
        Assert.True(WaitUntilSleepingInPoll(tid), "the call never blocked in poll");
        managedThreadId = managedId;
        return task;
    }

    /// <summary>The calling thread's kernel id (gettid).</summary>
    public static int CurrentKernelId() => (int)Syscall(SysGettid);

    /// <summary>Waits until the thread with kernel id <paramref name="tid"/> sleeps in poll; false after 5 s.</summary>
    public static bool WaitUntilSleepingInPoll(int tid)
    {
        var deadline = DateTime.UtcNow + Timeouts.Wait;
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
}
