using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>
/// The base of the event loop test classes: each test gets an event loop of its own (<see cref="Loop"/>, not yet
/// running) and, when it touches them, a PUSH connected to a PULL over loopback tcp; the loop is disposed after the
/// test, before the sockets it may hold.
/// </summary>
public abstract class LoopPerTest : PushPullPerTest
{
    /// <summary>This test's event loop.</summary>
    protected Net.Zmq.EventLoop Loop { get; } = new();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Loop.Dispose();
        }

        base.Dispose(disposing);
    }
}
