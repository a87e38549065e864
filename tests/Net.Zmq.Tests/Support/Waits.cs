namespace Net.Zmq.Tests.Support;

/// <summary>Bounds on every wait, so that a bug fails a test instead of hanging it.</summary>
internal static class Waits
{
    /// <summary>ReceiveTimeout and SendTimeout, in milliseconds, for sockets that expect traffic.</summary>
    public const int SocketTimeoutMs = 5000;

    /// <summary>How long a test waits for a task, an event or a callback.</summary>
    public static readonly TimeSpan Event = TimeSpan.FromSeconds(5);

    /// <summary>Runs a blocking call on a dedicated thread (never the thread pool, which may be starved).</summary>
    public static Task Run(Action action) =>
        Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>Runs a blocking call that returns a value on a dedicated thread.</summary>
    public static Task<T> Run<T>(Func<T> function) =>
        Task.Factory.StartNew(function, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>
    /// Waits for <paramref name="task"/> for at most <paramref name="timeout"/> (default <see cref="Event"/>);
    /// true when it finished (successfully or not) in time.
    /// </summary>
    public static async Task<bool> FinishesAsync(Task task, TimeSpan? timeout = null)
    {
        using var cancel = new CancellationTokenSource();
        Task winner = await Task.WhenAny(task, Task.Delay(timeout ?? Event, cancel.Token));
        await cancel.CancelAsync();
        return winner == task;
    }

    /// <summary>Gives a socket a receive and send timeout so a missing message fails instead of hanging.</summary>
    public static Socket WithTimeouts(this Socket socket)
    {
        socket.SetOption(SocketOption.ReceiveTimeout, SocketTimeoutMs);
        socket.SetOption(SocketOption.SendTimeout, SocketTimeoutMs);
        return socket;
    }
}
