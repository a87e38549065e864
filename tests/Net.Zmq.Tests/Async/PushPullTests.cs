using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Async;

/// <summary>Base of the tests that use one PUSH connected to one PULL, with a timeout for every await.</summary>
public abstract class PushPullTests : IDisposable
{
    private readonly SocketPair _pair;

    protected PushPullTests(bool inproc = false) => _pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc);

    protected Socket Push => _pair.Connector;

    /// <summary>The receiving side; its synchronous receives time out instead of hanging.</summary>
    protected Socket Pull => _pair.Binder;

    protected CancellationTokenSource Timeout { get; } = new(Timeouts.Wait);

    public void Dispose()
    {
        Timeout.Dispose();
        _pair.Dispose();
        GC.SuppressFinalize(this);
    }
}
