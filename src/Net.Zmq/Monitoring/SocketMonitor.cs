using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.Versioning;
using Net.Zmq.Diagnostics;
using Net.Zmq.Interop;

namespace Net.Zmq.Monitoring;

/// <summary>
/// Watches a socket's connection events (<c>zmq_socket_monitor</c>) and delivers them typed. The monitor owns a
/// PAIR socket connected to the monitored socket's event stream; read events with <see cref="Recv(TimeSpan)"/>,
/// <see cref="TryRecv(out SocketMonitorEvent, TimeSpan)"/> or <see cref="WaitFor(SocketEvents, TimeSpan)"/> from one thread,
/// or without a thread with <see cref="RecvAsync(CancellationToken)"/> and <see cref="RecvAllAsync(CancellationToken)"/>.
/// One read at a time: a read started while another is under way throws <see cref="InvalidOperationException"/>.
/// </summary>
/// <remarks>
/// <para>libzmq sends each event with a blocking send, from the thread that raises it (the application's, its I/O thread,
/// its reaper), and still after the monitored socket's close. The monitor keeps that from ever blocking: its event
/// socket is connected before libzmq starts publishing, it has no receive limit (events nobody reads are queued, never
/// refused), and it stays open until the monitoring has stopped.</para>
/// <para>Dispose it when done, before or after the monitored socket, from any thread. The monitoring stops at once if the
/// socket is free, when the call another thread is making on it ends, or, if the socket was disposed, with its close;
/// the event socket closes after that. A monitor never disposed keeps its event socket, and the events nobody reads,
/// until the monitored socket is closed, which stops the monitoring; the socket's finalizer does so too.</para>
/// </remarks>
public sealed partial class SocketMonitor : IDisposable
{
    // _state: who may touch _frames. A read holds it while it receives and parses; Dispose leaves the frames to a read
    // under way (the async one may still be completing on a reactor thread), which releases them when it ends.
    private const int Idle = 0;
    private const int Reading = 1;
    private const int Disposed = 2;

    private static long s_counter;
    private readonly Socket _monitored;
    private readonly Socket _events;

    // Tells the monitored socket's handle to stop the monitoring before its zmq_close, and _events' handle to leave its
    // zmq_close until then.
    private readonly MonitorLink _link;
    private readonly MultipartMessage _frames = new();
    private int _state;

    /// <summary>
    /// Starts monitoring <paramref name="socket"/> for <paramref name="events"/>, replacing the socket's monitoring under way
    /// if any. Call it from the thread that uses the socket.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on the socket.</exception>
    /// <exception cref="ZmqException">libzmq refused (EINVAL: <paramref name="events"/> has bits outside <see cref="SocketEvents.All"/>).</exception>
    public SocketMonitor(Socket socket, SocketEvents events = SocketEvents.All)
    {
        ArgumentNullException.ThrowIfNull(socket);
        socket.Gate.ThrowIfDisposed();
        _monitored = socket;
        Endpoint = $"inproc://net.zmq.monitor.{Environment.ProcessId}.{Interlocked.Increment(ref s_counter)}";
        _events = new Socket(socket.Context, SocketType.Pair);
        _link = new MonitorLink(_events.Gate.Handle);
        try
        {
            // Connected before libzmq binds its end (inproc allows that), this socket is the peer of the first event;
            // with no receive limit the pipe never fills.
            _events.SetOption(SocketOption.Linger, 0);
            _events.SetOption(SocketOption.ReceiveHighWatermark, 0);
            _events.Connect(Endpoint);
            socket.StartMonitor(Endpoint, events, _link);
        }
        catch
        {
            _link.Stopped(); // never started
            _events.Dispose();
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
    /// <exception cref="InvalidOperationException">Another read is under way.</exception>
    public bool TryRecv(out SocketMonitorEvent monitorEvent, TimeSpan timeout)
    {
        BeginRead();
        try
        {
            _events.SetOption(SocketOption.ReceiveTimeout, timeout);
            try
            {
                _events.RecvMultipart(_frames);
            }
            catch (ZmqException ex) when (ex.ErrorNumber == Errno.EAGAIN)
            {
                monitorEvent = default;
                return false;
            }

            monitorEvent = ReadEvent();
            return true;
        }
        finally
        {
            EndRead();
        }
    }

    /// <summary>
    /// Waits, without a thread, for the next event (the monitor's socket is read with
    /// <see cref="Socket.RecvMultipartAsync(MultipartMessage, CancellationToken)"/>).
    /// </summary>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled; no event was consumed.</exception>
    /// <exception cref="ObjectDisposedException">The monitor was disposed, before or during the wait.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    /// <exception cref="InvalidOperationException">Another read is under way.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public ValueTask<SocketMonitorEvent> RecvAsync(CancellationToken cancellationToken = default)
    {
        BeginRead();
        ValueTask received;
        try
        {
            received = _events.RecvMultipartAsync(_frames, cancellationToken);
        }
        catch
        {
            EndRead();
            throw;
        }

        if (received.IsCompletedSuccessfully)
        {
            try
            {
                received.GetAwaiter().GetResult(); // releases the operation behind the ValueTask
                return new ValueTask<SocketMonitorEvent>(ReadEvent());
            }
            finally
            {
                EndRead();
            }
        }

        return ParseWhenReceived(received);
    }

    /// <summary>
    /// Yields events as they arrive, without a thread, until cancelled, the monitor is disposed, its context shut
    /// down, or the monitored socket is closed (its <see cref="SocketEvents.MonitorStopped"/>, when watched, is the
    /// last event yielded).
    /// </summary>
    /// <remarks>Disposal, context shutdown and the socket's close end the loop quietly; cancellation ends it with <see cref="OperationCanceledException"/>.</remarks>
    /// <exception cref="InvalidOperationException">Another read is under way.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public async IAsyncEnumerable<SocketMonitorEvent> RecvAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        while (true)
        {
            SocketMonitorEvent monitorEvent;
            try
            {
                monitorEvent = await RecvAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is ObjectDisposedException or ContextTerminatedException && !cancellationToken.IsCancellationRequested)
            {
                yield break;
            }

            yield return monitorEvent;
            if (monitorEvent.Event == SocketEvents.MonitorStopped)
            {
                yield break;
            }
        }
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

    /// <summary>
    /// Stops the monitoring and closes the event socket; any thread, before or after the monitored socket's disposal.
    /// Never blocks and never throws: if another thread is inside a call on the monitored socket, the monitoring stops
    /// when that call ends; if the socket was disposed, its close stops it. The event socket closes once it has stopped.
    /// Calling it again does nothing.
    /// </summary>
    public void Dispose()
    {
        int previous = Interlocked.Exchange(ref _state, Disposed);
        if (previous == Disposed)
        {
            return;
        }

        _link.MarkMonitorDisposed();
        _monitored.StopDisposedMonitor();

        // A read under way ends with ObjectDisposedException, and releases the frames itself (EndRead). The native
        // socket's close waits, inside _link, for the monitoring to stop.
        _events.Dispose();
        if (previous == Idle)
        {
            _frames.Dispose();
        }
    }

    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private async ValueTask<SocketMonitorEvent> ParseWhenReceived(ValueTask received)
    {
        try
        {
            await received.ConfigureAwait(false);
            return ReadEvent();
        }
        catch (ObjectDisposedException) when (Volatile.Read(ref _state) == Disposed)
        {
            // The monitor's own socket was disposed under the wait: report the monitor, which the caller knows.
            throw new ObjectDisposedException(nameof(SocketMonitor));
        }
        finally
        {
            EndRead();
        }
    }

    /// <summary>Parses the frames just received into an event and counts it for the meter.</summary>
    private SocketMonitorEvent ReadEvent()
    {
        SocketMonitorEvent monitorEvent = Parse(_frames);
        try
        {
            ZmqMetrics.MonitorEventRead(monitorEvent.Event, _monitored.Type);
        }
#pragma warning disable CA1031 // A MeterListener's exception must not cost the reader its event.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Trace.TraceError($"Net.Zmq SocketMonitor: a MeterListener of the Net.Zmq meter threw while the {monitorEvent.Event} event was counted; the event is delivered. {ex}");
        }

        return monitorEvent;
    }

    private void BeginRead()
    {
        int previous = Interlocked.CompareExchange(ref _state, Reading, Idle);
        if (previous == Idle)
        {
            return;
        }

        ObjectDisposedException.ThrowIf(previous == Disposed, this);
        throw new InvalidOperationException("Another read of this SocketMonitor is under way; read its events from one thread, one at a time.");
    }

    private void EndRead()
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Reading) != Reading)
        {
            // Disposed during the read, which left the frames to this one.
            _frames.Dispose();
        }
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
