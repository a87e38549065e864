using System.ComponentModel;

namespace Net.Zmq.Monitoring;

/// <summary>The former names of the monitor's receive calls, kept so that code using them still compiles.</summary>
public sealed partial class SocketMonitor
{
    /// <summary>The former name of <see cref="Recv(TimeSpan)"/>, which it calls.</summary>
    /// <exception cref="TimeoutException">No event arrived in time.</exception>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("Use Recv instead: receive calls are named Recv throughout Net.Zmq.")]
    public SocketMonitorEvent Receive(TimeSpan timeout) => Recv(timeout);

    /// <summary>The former name of <see cref="TryRecv(out SocketMonitorEvent, TimeSpan)"/>, which it calls.</summary>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("Use TryRecv instead: receive calls are named Recv throughout Net.Zmq.")]
    public bool TryReceive(out SocketMonitorEvent monitorEvent, TimeSpan timeout) => TryRecv(out monitorEvent, timeout);
}
