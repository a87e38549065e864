using Net.Zmq.Async;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// Sets the reactor's inline continuations switch (<c>Net.Zmq.Async.InlineContinuations</c>) until disposed, then
/// restores what it was: <c>using (new InlineContinuationsScope(true)) { ... }</c>.
/// </summary>
internal sealed class InlineContinuationsScope : IDisposable
{
    private readonly bool _before = SocketReactor.InlineContinuations;

    public InlineContinuationsScope(bool inlineContinuations) => SocketReactor.InlineContinuations = inlineContinuations;

    public void Dispose() => SocketReactor.InlineContinuations = _before;
}
