using Net.Zmq.Async;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>
/// Where the code after an await of a parked operation runs: on the thread pool by default, as for .NET's own sockets,
/// and on the reactor thread that completed it with the <c>Net.Zmq.Async.InlineContinuations</c> switch on. The switch
/// is process-wide, so these tests run alone.
/// </summary>
[Collection(ProcessMeasurementCollection.Name)]
public sealed class InlineContinuationsTests
{
    [Fact]
    public async Task By_default_every_continuation_of_a_parked_operation_runs_on_the_thread_pool()
    {
        Assert.False(SocketReactor.InlineContinuations, "the switch is off unless the app sets it");

        var threads = await ContinuationThreadTests.ParkedContinuationThreadsAsync();

        Assert.All(threads, thread => Assert.True(thread.IsPoolThread, $"a continuation ran on the thread '{thread.Name}'"));
    }

    [SkippableFact]
    public async Task With_the_switch_on_continuations_run_on_the_reactor_thread_that_completed_them()
    {
        // On Windows one reactor thread waits, and a continuation runs inline only while another is left to wait.
        Skip.IfNot(OperatingSystem.IsLinux(), "only epoll's reactor has a second waiting thread");
        // A continuation runs inline only while the other reactor thread is free to wait. On a loaded machine one of
        // them can be kept off the CPU for a whole run of 50 operations, so every completion in it goes to the pool:
        // up to ten runs, until one shows the reactor thread.
        List<(string? Name, bool IsPoolThread)> threads = [];
        await WithInlineContinuations(async () =>
        {
            for (int run = 0; run < 10 && !threads.Exists(thread => thread.Name == SocketReactor.ThreadName); run++)
            {
                threads.AddRange(await ContinuationThreadTests.ParkedContinuationThreadsAsync());
            }
        });

        Assert.Contains(threads, thread => thread.Name == SocketReactor.ThreadName);
        Assert.All(threads, thread => Assert.True(
            thread.IsPoolThread || thread.Name == SocketReactor.ThreadName, $"a continuation ran on the thread '{thread.Name}'"));
    }

    [Fact]
    public Task With_the_switch_on_a_continuation_that_blocks_does_not_hold_up_other_sockets() =>
        WithInlineContinuations(ContinuationThreadTests.BlockingContinuationHoldsUpNoOtherSocketAsync);

    private static async Task WithInlineContinuations(Func<Task> test)
    {
        SocketReactor.InlineContinuations = true;
        try
        {
            await test();
        }
        finally
        {
            SocketReactor.InlineContinuations = false;
        }
    }
}
