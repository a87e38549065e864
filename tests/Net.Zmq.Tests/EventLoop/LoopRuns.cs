using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>Helpers the event loop tests share: a run that must end in time.</summary>
internal static class LoopRuns
{
    /// <summary>Waits for the task of <see cref="Net.Zmq.EventLoop.RunAsync"/>; fails when the loop did not stop in time, rethrows what stopped it.</summary>
    public static async Task EndsAsync(Task run, TimeSpan? timeout = null)
    {
        Assert.True(await Waits.FinishesAsync(run, timeout), "the event loop did not stop in time");
        await run;
    }
}
