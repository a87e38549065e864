using Net.Zmq.Internal;
using Net.Zmq.Interop;
using Net.Zmq.Monitoring;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Publishes this socket's <paramref name="events"/> on <paramref name="endpoint"/> (an <c>inproc://</c> address) for a
    /// PAIR socket to read (<c>zmq_socket_monitor</c>). <see cref="SocketMonitor"/> does this for you and parses the events.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="endpoint"/> is null or empty.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ZmqException">EPROTONOSUPPORT: the endpoint is not inproc; EINVAL: it is malformed.</exception>
    public unsafe void Monitor(string endpoint, SocketEvents events = SocketEvents.All)
    {
        ArgumentException.ThrowIfNullOrEmpty(endpoint);
        using var text = new Utf8Z(endpoint);
        using SocketCall call = BeginCall();
        nint socket = call.Native;
        fixed (byte* p = text.Bytes)
        {
            if (LibZmq.SocketMonitor(socket, p, (int)events) != 0)
            {
                int errorNumber = LibZmq.Errno();
                ThrowHelper.ThrowZmq(errorNumber, $"Monitoring the {Type} socket on '{endpoint}'");
            }
        }
    }

    /// <summary>Stops the monitor started by <see cref="Monitor"/>; the monitor receives <see cref="SocketEvents.MonitorStopped"/>.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    public unsafe void StopMonitor()
    {
        using SocketCall call = BeginCall();
        nint socket = call.Native;
        _ = LibZmq.SocketMonitor(socket, null, 0); // stopping cannot fail for a live socket, monitored or not
    }
}
