namespace Net.Zmq.Tests.Support;

/// <summary>
/// The base of a test class whose tests each need a context and nothing special about it: xunit makes an instance per
/// test, so each test gets a <see cref="Context"/> of its own (<see cref="Sockets.NewContext"/>: no linger), disposed
/// after the test and after the sockets the test disposed with <c>using</c>.
/// </summary>
public abstract class ContextPerTest : IDisposable
{
    /// <summary>This test's context.</summary>
    protected Context Context { get; } = Sockets.NewContext();

    /// <inheritdoc />
    public void Dispose()
    {
        Context.Dispose();
        GC.SuppressFinalize(this);
    }
}
