using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

/// <summary>
/// A Poller is used from one thread at a time, and may be disposed from any: while one thread polls, another thread's
/// Add, Update or Remove is refused with <see cref="InvalidOperationException"/>, and its Dispose leaves the poller's
/// memory to the poll, which frees it as it returns and throws <see cref="ObjectDisposedException"/>. Before, the
/// Dispose freed the poll items under the running <c>zmq_poll</c>, which then wrote into freed memory, so that case
/// runs in a child process.
/// </summary>
public sealed class PollerFromAnotherThreadTests
{
    [Fact]
    public void A_Dispose_during_another_threads_Poll_ends_that_Poll_and_gives_the_socket_back() =>
        IsolatedProcess.Run(DisposeDuringPoll, Timeouts.Wait * 4).AssertSucceeded();

    /// <remarks>In a child process too: a failed assertion would dispose the poller under the running Poll.</remarks>
    [Fact]
    public void Another_threads_Update_during_a_Poll_is_refused_and_the_Poll_goes_on() =>
        IsolatedProcess.Run(UpdateDuringPoll, Timeouts.Wait * 4).AssertSucceeded();

    private static void UpdateDuringPoll()
    {
        if (!BlockedThreads.Supported)
        {
            return; // needs to see the polling thread asleep inside libzmq
        }

        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var poller = new Poller(1);
        int index = poller.Add(pull, PollEvents.In);
        Task<bool> polling = BlockedThreads.RunUntilBlocked(() => poller.Poll(Timeout.Infinite) == 1 && poller.IsReadable(index), out _);

        var refused = Assert.Throws<InvalidOperationException>(() => poller.Update(index, PollEvents.In | PollEvents.Out));
        Assert.Contains("Poller is in use by thread", refused.Message, StringComparison.Ordinal);

        push.Send("wake");
        Assert.True(Waits.FinishesAsync(polling).GetAwaiter().GetResult(), "the Poll never returned");
        Assert.True(polling.GetAwaiter().GetResult());
    }

    private static void DisposeDuringPoll()
    {
        if (!BlockedThreads.Supported)
        {
            return; // needs to see the polling thread asleep inside libzmq
        }

        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        Task<int> polling = BlockedThreads.RunUntilBlocked(() => poller.Poll(Timeout.Infinite), out _);

        poller.Dispose(); // does not wait for the Poll (it cannot wake it)
        Assert.Throws<ObjectDisposedException>(() => poller.Update(0, PollEvents.In)); // disposed, though still polled
        push.Send("wake");
        Assert.True(Waits.FinishesAsync(polling).GetAwaiter().GetResult(), "the Poll never returned");
        Assert.Throws<ObjectDisposedException>(() => polling.GetAwaiter().GetResult());

        // The Poll gave the socket's claim back, and the disposed poller its hold: this thread may receive now.
        Assert.Equal("wake", pull.RecvString());
        Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
    }
}
