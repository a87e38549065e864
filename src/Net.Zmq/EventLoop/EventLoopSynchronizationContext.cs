using System.Runtime.ExceptionServices;

namespace Net.Zmq;

/// <summary>
/// The <see cref="SynchronizationContext"/> an <see cref="EventLoop"/> installs on its thread while it runs, so that the
/// code after an <c>await</c> in a handler resumes on the loop thread. <see cref="Post"/> queues the callback to the loop
/// (dropped once the loop is disposed); <see cref="Send"/> runs it there and waits, or runs it at once on the loop thread.
/// </summary>
internal sealed class EventLoopSynchronizationContext(EventLoop loop) : SynchronizationContext
{
    public override void Post(SendOrPostCallback d, object? state) => loop.TryPost(d, state);

    public override void Send(SendOrPostCallback d, object? state)
    {
        ArgumentNullException.ThrowIfNull(d);
        if (loop.IsOnLoopThread)
        {
            d(state);
            return;
        }

        using var done = new ManualResetEventSlim();
        ExceptionDispatchInfo? failure = null;
        loop.Post(() =>
        {
            try
            {
                d(state);
            }
            catch (Exception ex)
            {
                failure = ExceptionDispatchInfo.Capture(ex);
            }
            finally
            {
                done.Set();
            }
        });
        done.Wait();
        failure?.Throw();
    }

    public override SynchronizationContext CreateCopy() => this;
}
