using System.Runtime.ExceptionServices;
using Net.Zmq.Internal;

namespace Net.Zmq;

/// <summary>
/// The <see cref="SynchronizationContext"/> an <see cref="EventLoop"/> installs on its thread while it runs, so that the
/// code after an <c>await</c> in a handler resumes on the loop thread. <see cref="Post"/> queues the callback to the loop
/// (dropped once the loop is disposed); <see cref="Send"/> runs it there and waits, or runs it at once on the loop thread,
/// and throws <see cref="ObjectDisposedException"/> when the loop is disposed before running it.
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

        using var request = new SendRequest(d, state);
        loop.Post(SendRequest.Run, request); // queued: the loop runs it or drops it, and either ends the wait
        request.Wait(loop);
    }

    public override SynchronizationContext CreateCopy() => this;

    /// <summary>A <see cref="Send"/> waiting for the loop: run there, or dropped by the loop's disposal.</summary>
    private sealed class SendRequest(SendOrPostCallback callback, object? state) : EventLoop.IDroppableWork, IDisposable
    {
        public static readonly SendOrPostCallback Run = static request => ((SendRequest)request!).RunOnLoop();

        private readonly ManualResetEventSlim _done = new();
        private ExceptionDispatchInfo? _failure;
        private bool _dropped;

        public void Dropped()
        {
            _dropped = true;
            _done.Set();
        }

        /// <summary>Waits for the callback; rethrows what it threw.</summary>
        /// <exception cref="ObjectDisposedException">The loop was disposed before running it.</exception>
        public void Wait(EventLoop loop)
        {
            _done.Wait();
            if (_dropped)
            {
                ThrowHelper.ThrowObjectDisposed(loop);
            }

            _failure?.Throw();
        }

        public void Dispose() => _done.Dispose();

        private void RunOnLoop()
        {
            try
            {
                callback(state);
            }
            catch (Exception ex)
            {
                _failure = ExceptionDispatchInfo.Capture(ex);
            }
            finally
            {
                _done.Set();
            }
        }
    }
}
