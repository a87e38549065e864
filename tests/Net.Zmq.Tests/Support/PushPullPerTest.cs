namespace Net.Zmq.Tests.Support;

/// <summary>
/// The base of a test class whose tests each start from one PUSH connected to one PULL (a <see cref="SocketPair"/>:
/// the PULL binds, over loopback tcp or, with <c>inproc</c>, a fresh inproc name). xunit makes an instance per test, so
/// each test gets a pair of its own, opened when the test first touches it and disposed after the test.
/// </summary>
public abstract class PushPullPerTest : IDisposable
{
    private readonly Lazy<SocketPair> _pair;

    /// <param name="inproc">Whether the pair connects over a fresh inproc name instead of loopback tcp.</param>
    protected PushPullPerTest(bool inproc = false) =>
        _pair = new(() => SocketPair.Open(SocketType.Pull, SocketType.Push, inproc)); // thread-safe: one pair per test

    /// <summary>The sending side, connected to <see cref="Pull"/>.</summary>
    protected Socket Push => Pair.Connector;

    /// <summary>The receiving side; its synchronous receives time out instead of hanging.</summary>
    protected Socket Pull => Pair.Binder;

    /// <summary>The context of the pair, for further sockets a test needs (disposed with the pair).</summary>
    protected Context Context => Pair.Context;

    /// <summary>Cancels after <see cref="Timeouts.Wait"/>: the token for every await of the test.</summary>
    protected CancellationTokenSource Timeout { get; } = new(Timeouts.Wait);

    private SocketPair Pair => _pair.Value;

    /// <inheritdoc />
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Disposes the pair and the timeout; a derived class disposes first what holds the pair's sockets.</summary>
    protected virtual void Dispose(bool disposing)
    {
        if (disposing)
        {
            Timeout.Dispose();
            if (_pair.IsValueCreated)
            {
                _pair.Value.Dispose();
            }
        }
    }
}
