using System.Diagnostics.Metrics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Diagnostics;

/// <summary>
/// A MeterListener whose InstrumentPublished throws when the Net.Zmq meter's instruments are created leaves the library
/// working (those instruments are left out, and the failure is reported on Trace). It used to fail the type that holds
/// them, and with it every Context. In a child process: the listener must exist before the meter does.
/// </summary>
public sealed class ThrowingInstrumentPublishedTests
{
    [Fact]
    public void A_listener_that_throws_on_publication_does_not_break_contexts()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(UseTheLibraryUnderAThrowingListener, Timeouts.Wait * 6);

        outcome.AssertSucceeded();
        Assert.Contains("publication thrown on purpose", outcome.Output, StringComparison.Ordinal);
    }

    private static void UseTheLibraryUnderAThrowingListener()
    {
        using var reported = TracedToOutput.Start();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, _) =>
        {
            if (instrument.Meter.Name == "Net.Zmq")
            {
                throw new InvalidOperationException("publication thrown on purpose");
            }
        };
        listener.Start();

        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        push.WithTimeouts().Send("still works");
        if (pull.WithTimeouts().RecvString() != "still works")
        {
            throw new InvalidOperationException("the message did not arrive");
        }
    }
}
