namespace Net.Zmq.Tests.Support;

/// <summary>Blocking calls run on threads of their own, and bounded waits for the tasks that run them.</summary>
internal static class Waits
{
    /// <summary>Runs a blocking call on a dedicated thread (never the thread pool, which may be starved).</summary>
    public static Task Run(Action action) =>
        Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>Runs a blocking call that returns a value on a dedicated thread.</summary>
    public static Task<T> Run<T>(Func<T> function) =>
        Task.Factory.StartNew(function, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>
    /// Starts a blocking <paramref name="call"/> on a dedicated thread and returns once that thread is about to make it
    /// (it may not be inside libzmq yet: a test that needs it to be in flight checks that itself).
    /// </summary>
    public static Task StartBlocked(Action call) => StartBlocked(() =>
    {
        call();
        return true;
    });

    /// <summary><see cref="StartBlocked(Action)"/> for a call that returns a value.</summary>
    public static Task<T> StartBlocked<T>(Func<T> call)
    {
        using var started = new ManualResetEventSlim();
        Task<T> task = Run(() =>
        {
            started.Set();
            return call();
        });
        Assert.True(started.Wait(Timeouts.Wait), "the thread for the blocking call did not start");
        return task;
    }

    /// <summary>
    /// Waits for <paramref name="task"/> for at most <paramref name="timeout"/> (default <see cref="Timeouts.Wait"/>);
    /// true when it finished (successfully or not) in time.
    /// </summary>
    public static async Task<bool> FinishesAsync(Task task, TimeSpan? timeout = null)
    {
        using var cancel = new CancellationTokenSource();
        Task winner = await Task.WhenAny(task, Task.Delay(timeout ?? Timeouts.Wait, cancel.Token));
        await cancel.CancelAsync();
        return winner == task;
    }
}
