using System.Runtime.ExceptionServices;

namespace Net.Zmq.Tests.Support;

/// <summary>
/// Runs work on a dedicated background thread. <see cref="Join"/> fails the test when the work does not finish
/// in time and rethrows anything the work threw, so an assertion on the other thread is not lost.
/// </summary>
internal sealed class BackgroundWork
{
    private readonly Thread _thread;
    private readonly CancellationTokenSource _failed = new();
    private Exception? _failure;

    private BackgroundWork(Action work, string name)
    {
        _thread = new Thread(() =>
        {
            try
            {
                work();
            }
            catch (Exception ex)
            {
                _failure = ex;
                _failed.Cancel();
            }
        })
        { IsBackground = true, Name = name };
    }

    /// <summary>
    /// Cancelled as soon as the work throws: link it into what the test waits for on its own thread, so that the wait
    /// ends at once and <see cref="Join"/> reports the failure instead of a timeout.
    /// </summary>
    public CancellationToken Failed => _failed.Token;

    /// <summary>Starts <paramref name="work"/> on a new background thread.</summary>
    public static BackgroundWork Start(string name, Action work)
    {
        var background = new BackgroundWork(work, name);
        background._thread.Start();
        return background;
    }

    /// <summary>Waits for the work; fails when it takes longer than <paramref name="timeout"/>, rethrows its exception.</summary>
    public void Join(TimeSpan timeout)
    {
        Assert.True(_thread.Join(timeout), $"'{_thread.Name}' did not finish within {timeout.TotalSeconds} s.");
        if (_failure is not null)
        {
            ExceptionDispatchInfo.Capture(_failure).Throw();
        }
    }
}
