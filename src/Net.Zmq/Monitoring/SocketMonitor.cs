using System.Buffers.Binary;
using System.Diagnostics;
using Net.Zmq.Diagnostics;
using Net.Zmq.Internal;

namespace Net.Zmq.Monitoring;

/// <summary>
/// Watches a socket's connection events (<c>zmq_socket_monitor</c>) and delivers them typed. The monitor owns a
/// PAIR socket connected to the monitored socket's event stream; read events with <see cref="Recv(TimeSpan)"/>,
/// <see cref="TryRecv(out SocketMonitorEvent, TimeSpan)"/> or <see cref="WaitFor(SocketEvents, TimeSpan)"/> from one thread.
/// </summary>
public sealed partial class SocketMonitor : IDisposable
{
    private static long s_counter;
    private readonly Socket _monitored;
    private readonly Socket _events;
    private readonly MultipartMessage _frames = new();
    private bool _disposed;

    /// <summary>Starts monitoring <paramref name="socket"/> for <paramref name="events"/>. Call it from the thread that uses the socket.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    public SocketMonitor(Socket socket, SocketEvents events = SocketEvents.All)
    {
        ArgumentNullException.ThrowIfNull(socket);
        _monitored = socket;
        Endpoint = $"inproc://net.zmq.monitor.{Environment.ProcessId}.{Interlocked.Increment(ref s_counter)}";
        socket.Monitor(Endpoint, events);
        try
        {
            _events = new Socket(socket.Context, SocketType.Pair);
            _events.SetOption(SocketOption.Linger, 0);
            _events.Connect(Endpoint);
        }
        catch
        {
            _events?.Dispose();
            socket.StopMonitor();
            throw;
        }
    }

    /// <summary>The inproc endpoint the events are published on.</summary>
    public string Endpoint { get; }

    /// <summary>Waits up to <paramref name="timeout"/> for the next event.</summary>
    /// <exception cref="TimeoutException">No event arrived in time.</exception>
    public SocketMonitorEvent Recv(TimeSpan timeout) =>
        TryRecv(out SocketMonitorEvent monitorEvent, timeout)
            ? monitorEvent
            : throw new TimeoutException($"No socket event arrived within {timeout}.");

    /// <summary>Waits up to <paramref name="timeout"/> for the next event; false when none arrived.</summary>
    /// <exception cref="ObjectDisposedException">The monitor was disposed.</exception>
    public bool TryRecv(out SocketMonitorEvent monitorEvent, TimeSpan timeout)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        _events.SetOption(SocketOption.ReceiveTimeout, timeout);
        try
        {
            _events.RecvMultipart(_frames);
        }
        catch (ZmqException ex) when (ex.ErrorNumber == ZmqError.EAGAIN)
        {
            monitorEvent = default;
            return false;
        }

        monitorEvent = Parse(_frames);
        ZmqMetrics.MonitorEventRead(monitorEvent.Event, _monitored.Type);
        return true;
    }

    /// <summary>
    /// Reads events until one of <paramref name="wanted"/> arrives and returns it; earlier events are skipped.
    /// </summary>
    /// <exception cref="TimeoutException">None arrived within <paramref name="timeout"/>.</exception>
    public SocketMonitorEvent WaitFor(SocketEvents wanted, TimeSpan timeout)
    {
        long start = Stopwatch.GetTimestamp();
        while (true)
        {
            TimeSpan left = timeout - Stopwatch.GetElapsedTime(start);
            if (left <= TimeSpan.Zero || !TryRecv(out SocketMonitorEvent monitorEvent, left))
            {
                throw new TimeoutException($"No {wanted} event arrived within {timeout}.");
            }

            if ((monitorEvent.Event & wanted) != 0)
            {
                return monitorEvent;
            }
        }
    }

    /// <summary>Stops monitoring (if the socket is still open) and closes the event socket. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (!_monitored.IsDisposed)
        {
            try
            {
                _monitored.StopMonitor();
            }
            catch (ObjectDisposedException)
            {
            }
            catch (ContextTerminatedException)
            {
            }
        }

        _events.Dispose();
        _frames.Dispose();
    }

    private static SocketMonitorEvent Parse(MultipartMessage frames)
    {
        // libzmq 4.3 (event version 1): [6 bytes: uint16 event, uint32 value, native byte order] [endpoint]
        ReadOnlySpan<byte> head = frames[0].Data;
        if (frames.Count < 2 || head.Length != 6)
        {
            throw new InvalidDataException($"Unexpected monitor message: {frames.Count} frames, first of {head.Length} bytes.");
        }

        ushort id = BitConverter.IsLittleEndian ? BinaryPrimitives.ReadUInt16LittleEndian(head) : BinaryPrimitives.ReadUInt16BigEndian(head);
        int value = BitConverter.IsLittleEndian ? BinaryPrimitives.ReadInt32LittleEndian(head[2..]) : BinaryPrimitives.ReadInt32BigEndian(head[2..]);
        return new SocketMonitorEvent((SocketEvents)id, value, frames[1].ToString());
    }
}
