using System.Diagnostics.Metrics;
using Net.Zmq.Monitoring;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Diagnostics;

/// <summary>
/// A MeterListener of the Net.Zmq meter that throws costs the library nothing: the failure is reported on Trace and the
/// library goes on. A listener that threw when the meter's instruments were published used to fail the type that holds
/// them, and with it every Context. Each case runs in a child process: the listener is process-wide, and one that
/// throws on publication must exist before the meter does.
/// </summary>
public sealed class ThrowingMeterListenerTests
{
    [Fact]
    public void A_listener_that_throws_on_publication_does_not_break_contexts() =>
        ReportedOnTrace.AssertInChild(UseTheLibraryUnderAThrowingPublication, "publication thrown on purpose");

    [Fact]
    public void A_listener_that_throws_on_a_measurement_does_not_take_the_monitors_events() =>
        ReportedOnTrace.AssertInChild(
            ReadMonitorEventsUnderAThrowingMeasurement, "a MeterListener of the Net.Zmq meter threw", "listener thrown on purpose");

    private static void UseTheLibraryUnderAThrowingPublication()
    {
        using var reported = TracedToOutput.Start();
        using MeterListener listener = ListenToNetZmq((_, _) => throw new InvalidOperationException("publication thrown on purpose"));

        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        pair.Connector.Send("still works");
        Assert.Equal("still works", pair.Binder.RecvString());
    }

    private static void ReadMonitorEventsUnderAThrowingMeasurement()
    {
        using var reported = TracedToOutput.Start();
        using MeterListener listener = ListenToNetZmq(
            (instrument, l) => l.EnableMeasurementEvents(instrument),
            (_, _, _, _) => throw new InvalidOperationException("listener thrown on purpose"));

        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        using var monitor = new SocketMonitor(pair.Binder, SocketEvents.Accepted | SocketEvents.Disconnected);
        pair.Connect();

        Assert.Equal(SocketEvents.Accepted, monitor.Recv(Timeouts.Wait).Event);
        pair.Connector.Dispose();
        if (OperatingSystem.IsLinux() || OperatingSystem.IsWindows())
        {
            Task<SocketMonitorEvent> disconnected = monitor.RecvAsync().AsTask();
            Assert.True(disconnected.Wait(Timeouts.Wait), "the Disconnected event was not read");
            Assert.Equal(SocketEvents.Disconnected, disconnected.Result.Event);
        }
    }

    /// <summary>
    /// A started listener that calls <paramref name="published"/> for each instrument of the Net.Zmq meter, and
    /// <paramref name="measured"/> for each measurement of the instruments it enables.
    /// </summary>
    private static MeterListener ListenToNetZmq(Action<Instrument, MeterListener> published, MeasurementCallback<long>? measured = null)
    {
        var listener = new MeterListener
        {
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == "Net.Zmq")
                {
                    published(instrument, l);
                }
            },
        };
        if (measured is not null)
        {
            listener.SetMeasurementEventCallback(measured);
        }

        listener.Start();
        return listener;
    }
}
