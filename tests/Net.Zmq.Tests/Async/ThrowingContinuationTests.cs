using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A continuation that throws while the reactor runs it inline (InlineContinuations on) is reported on Trace and the
/// reactor thread goes on serving sockets; it used to end the thread, and with it the process. Runs in a child process.
/// </summary>
public sealed class ThrowingContinuationTests
{
    [Fact]
    public void A_continuation_that_throws_on_the_reactor_thread_does_not_end_it() =>
        ReportedOnTrace.AssertInChild(ThrowFromAnInlineContinuation, "continuation thrown on purpose", "the reactor goes on");

    private static void ThrowFromAnInlineContinuation()
    {
        AppContext.SetSwitch("Net.Zmq.Async.InlineContinuations", true);
        using var reported = TracedToOutput.Start();
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (receiver, sender) = pair;
        byte[] buffer = new byte[16];

        ValueTask<int> first = receiver.RecvAsync(buffer);
        using var ran = new ManualResetEventSlim();
        Thread? reactor = null;
        first.GetAwaiter().UnsafeOnCompleted(() =>
        {
            reactor = Thread.CurrentThread;
            ran.Set();
            throw new InvalidOperationException("continuation thrown on purpose");
        });
        sender.Send("first");
        Assert.True(ran.Wait(Timeouts.Wait), "the continuation never ran");
        Assert.True(
            reactor!.Name == "Net.Zmq reactor",
            $"the continuation ran on '{reactor.Name}', not inline on a reactor thread: nothing was tested");

        // Reported, and the thread that ran it lives on (an exception escaping it would end the process here).
        Assert.True(reported.WaitForReport(), "the failure was not reported on Trace");
        Console.WriteLine($"first: {first.GetAwaiter().GetResult()} bytes; the reactor thread is alive: {reactor.IsAlive}");
        Assert.True(reactor.IsAlive, "the reactor thread ended");

        Task<int> second = receiver.RecvAsync(buffer).AsTask();
        sender.Send("second");
        Assert.True(second.Wait(Timeouts.Wait), "the reactor no longer completes receives");
    }
}
