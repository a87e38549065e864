using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// A continuation that throws while the reactor runs it inline (InlineContinuations on) is reported on Trace and the
/// reactor thread goes on serving sockets; it used to end the thread, and with it the process. Runs in a child process.
/// </summary>
public sealed class ThrowingContinuationTests
{
    [Fact]
    public void A_continuation_that_throws_on_the_reactor_thread_does_not_end_it()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(ThrowFromAnInlineContinuation, Timeouts.Wait * 6);

        outcome.AssertSucceeded();
        Assert.Contains("continuation thrown on purpose", outcome.Output, StringComparison.Ordinal);
        Assert.Contains("the reactor goes on", outcome.Output, StringComparison.Ordinal);
    }

    private static void ThrowFromAnInlineContinuation()
    {
        AppContext.SetSwitch("Net.Zmq.Async.InlineContinuations", true);
        using var reported = TracedToOutput.Start();
        using var context = new Context();
        using Socket receiver = Sockets.New(context, SocketType.Pair);
        using Socket sender = Sockets.New(context, SocketType.Pair);
        sender.Connect(Endpoints.BindInproc(receiver));
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
        if (!ran.Wait(Timeouts.Wait))
        {
            throw new TimeoutException("the continuation never ran");
        }

        if (reactor!.Name != "Net.Zmq reactor")
        {
            throw new InvalidOperationException($"the continuation ran on '{reactor.Name}', not inline on a reactor thread: nothing was tested");
        }

        // Reported, and the thread that ran it lives on (an exception escaping it would end the process here).
        if (!reported.WaitForReport())
        {
            throw new TimeoutException("the failure was not reported on Trace");
        }

        Console.WriteLine($"first: {first.GetAwaiter().GetResult()} bytes; the reactor thread is alive: {reactor.IsAlive}");
        if (!reactor.IsAlive)
        {
            throw new InvalidOperationException("the reactor thread ended");
        }

        Task<int> second = receiver.RecvAsync(buffer).AsTask();
        sender.Send("second");
        if (!second.Wait(Timeouts.Wait))
        {
            throw new TimeoutException("the reactor no longer completes receives");
        }
    }
}
