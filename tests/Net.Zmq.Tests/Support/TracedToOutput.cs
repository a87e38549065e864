using System.Diagnostics;

namespace Net.Zmq.Tests.Support;

/// <summary>
/// For a piece run by <see cref="IsolatedProcess"/>: sends what the library reports on <see cref="Trace"/> to standard
/// output, which the parent reads in <see cref="IsolatedOutcome.Output"/>, and tells when the first report arrives.
/// </summary>
internal sealed class TracedToOutput : TraceListener
{
    private readonly ManualResetEventSlim _written = new();

    private TracedToOutput()
    {
    }

    /// <summary>Adds the listeners: everything traced from now on is printed at once.</summary>
    public static TracedToOutput Start()
    {
        var signal = new TracedToOutput();
        Trace.Listeners.Add(signal);
        Trace.Listeners.Add(new TextWriterTraceListener(Console.Out));
        Trace.AutoFlush = true;
        return signal;
    }

    /// <summary>Waits at most <see cref="Timeouts.Wait"/> for the first report; false when none came.</summary>
    public bool WaitForReport() => _written.Wait(Timeouts.Wait);

    /// <inheritdoc />
    public override void Write(string? message) => _written.Set();

    /// <inheritdoc />
    public override void WriteLine(string? message) => _written.Set();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        _written.Dispose();
        base.Dispose(disposing);
    }
}
