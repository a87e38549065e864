using Net.Zmq.Internal;
using Net.Zmq.Interop;
using Net.Zmq.Monitoring;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Publishes this socket's <paramref name="events"/> on <paramref name="endpoint"/> (an <c>inproc://</c> address) for a
    /// PAIR socket to read (<c>zmq_socket_monitor</c>). <see cref="SocketMonitor"/> does this for you, parses the events,
    /// and keeps libzmq from blocking on them; this call replaces the monitoring under way, a SocketMonitor's included.
    /// </summary>
    /// <remarks>
    /// libzmq sends each event with a blocking send, from the thread that raises it (the application's, its I/O thread,
    /// its reaper), and goes on after the socket is closed: keep the PAIR connected and read, or give it a
    /// <see cref="SocketOption.ReceiveHighWatermark"/> of 0, until <see cref="StopMonitor"/> or the context's end. An
    /// event that finds the PAIR closed, or its pipe full, stops that libzmq thread until the context ends.
    /// </remarks>
    /// <exception cref="ArgumentException"><paramref name="endpoint"/> is null or empty.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ZmqException">EPROTONOSUPPORT: the endpoint is not inproc; EINVAL: it is malformed.</exception>
    public void Monitor(string endpoint, SocketEvents events = SocketEvents.All)
    {
        ArgumentException.ThrowIfNullOrEmpty(endpoint);
        StartMonitor(endpoint, events, into: null);
    }

    /// <summary>
    /// Stops the monitoring started by <see cref="Monitor"/> or a <see cref="SocketMonitor"/>; its reader receives
    /// <see cref="SocketEvents.MonitorStopped"/> (when watched), the last event it gets.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    public unsafe void StopMonitor()
    {
        using SocketCall call = BeginCall();
        _ = _gate.Handle.Monitor(call.Native, null, 0, into: null); // stopping cannot fail for a live socket, monitored or not
    }

    /// <summary><see cref="Monitor"/> for a <see cref="SocketMonitor"/>, whose event socket <paramref name="into"/> links.</summary>
    internal unsafe void StartMonitor(string endpoint, SocketEvents events, MonitorLink? into)
    {
        using var text = new Utf8Z(endpoint);
        using SocketCall call = BeginCall();
        fixed (byte* p = text.Bytes)
        {
            int errorNumber = _gate.Handle.Monitor(call.Native, p, (int)events, into);
            if (errorNumber != 0)
            {
                ThrowHelper.ThrowZmq(errorNumber, $"Monitoring the {Type} socket on '{endpoint}'");
            }
        }
    }

    /// <summary>
    /// Stops the monitoring into a disposed <see cref="SocketMonitor"/>'s event socket: now, at the end of the call in
    /// flight on another thread, or by this socket's close. Never blocks, never throws.
    /// </summary>
    internal void StopDisposedMonitor() => _gate.StopDisposedMonitor();
}
