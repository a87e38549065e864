using System.Diagnostics.Metrics;
using Net.Zmq.Monitoring;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Monitoring;

/// <summary>
/// A MeterListener of the Net.Zmq meter that throws while a SocketMonitor counts an event costs the reader nothing:
/// the event is delivered, blocking or awaited, and the failure is reported on Trace. In a child process, so that the
/// process-wide listener touches no other test.
/// </summary>
public sealed class ThrowingMeterListenerTests
{
    [Fact]
    public void A_throwing_listener_does_not_take_the_monitors_events()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(ReadEventsUnderAThrowingListener, Timeouts.Wait * 6);

        outcome.AssertSucceeded();
        Assert.Contains("a MeterListener of the Net.Zmq meter threw", outcome.Output, StringComparison.Ordinal);
        Assert.Contains("listener thrown on purpose", outcome.Output, StringComparison.Ordinal);
    }

    private static void ReadEventsUnderAThrowingListener()
    {
        using var reported = TracedToOutput.Start();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "Net.Zmq")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, _, _, _) => throw new InvalidOperationException("listener thrown on purpose"));
        listener.Start();

        using var context = new Context();
        using Socket server = Sockets.New(context, SocketType.Pull);
        using var monitor = new SocketMonitor(server, SocketEvents.Accepted | SocketEvents.Disconnected);
        string endpoint = Endpoints.BindTcp(server);
        Socket client = Sockets.New(context, SocketType.Push);
        client.Connect(endpoint);

        SocketMonitorEvent accepted = monitor.Recv(Timeouts.Wait);
        if (accepted.Event != SocketEvents.Accepted)
        {
            throw new InvalidOperationException($"expected Accepted, read {accepted.Event}");
        }

        client.Dispose();
        if (OperatingSystem.IsLinux() || OperatingSystem.IsWindows())
        {
            Task<SocketMonitorEvent> disconnected = monitor.RecvAsync().AsTask();
            if (!disconnected.Wait(Timeouts.Wait) || disconnected.Result.Event != SocketEvents.Disconnected)
            {
                throw new InvalidOperationException($"expected Disconnected, got {disconnected.Status}");
            }
        }
    }
}
