using System.Diagnostics;
using System.Diagnostics.Metrics;
using Net.Zmq.Monitoring;

namespace Net.Zmq.Diagnostics;

/// <summary>
/// The "Net.Zmq" meter (System.Diagnostics.Metrics) and what feeds it. Open contexts and sockets are plain counts
/// kept with one interlocked add per open and close and reported when a listener collects; the other instruments
/// record only while a listener is enabled on them, so without one they cost a field read. docs/metrics.md lists
/// the instruments.
/// </summary>
internal static class ZmqMetrics
{
    /// <summary>The meter's name, which a listener or an OpenTelemetry <c>AddMeter</c> call subscribes to.</summary>
    internal const string MeterName = "Net.Zmq";

    internal static readonly Meter Meter = new(MeterName, typeof(ZmqMetrics).Assembly.GetName().Version?.ToString());

    // One slot per SocketType value (0 to the last draft type).
    private static readonly string[] s_typeNames = CreateTypeNames();
    private static readonly long[] s_openSockets = new long[s_typeNames.Length];
    private static readonly bool[] s_typeSeen = new bool[s_typeNames.Length];
    private static long s_openContexts;

    private static readonly Counter<long>? s_zapRequests = Create(meter => meter.CreateCounter<long>(
        "net.zmq.zap.requests", "{request}", "ZAP requests a ZapAuthenticator answered, by mechanism and result."));

    private static readonly Counter<long>? s_accepted = Create(meter => meter.CreateCounter<long>(
        "net.zmq.connections.accepted", "{connection}", "Connections a listening socket accepted, seen by a SocketMonitor."));

    private static readonly Counter<long>? s_connected = Create(meter => meter.CreateCounter<long>(
        "net.zmq.connections.connected", "{connection}", "Connections a connecting socket established, seen by a SocketMonitor."));

    private static readonly Counter<long>? s_disconnected = Create(meter => meter.CreateCounter<long>(
        "net.zmq.connections.closed", "{connection}", "Connections that ended (libzmq's DISCONNECTED event), seen by a SocketMonitor."));

    private static readonly Counter<long>? s_handshakesSucceeded = Create(meter => meter.CreateCounter<long>(
        "net.zmq.handshakes.succeeded", "{handshake}", "ZMTP handshakes that succeeded, seen by a SocketMonitor."));

    private static readonly Counter<long>? s_handshakesFailed = Create(meter => meter.CreateCounter<long>(
        "net.zmq.handshakes.failed", "{handshake}", "ZMTP handshakes that failed, by reason, seen by a SocketMonitor."));

    static ZmqMetrics()
    {
        Create(meter => meter.CreateObservableUpDownCounter(
            "net.zmq.context.count", static () => Volatile.Read(ref s_openContexts), "{context}",
            "Contexts created and not yet terminated."));
        Create(meter => meter.CreateObservableUpDownCounter(
            "net.zmq.socket.count", ObserveSockets, "{socket}", "Sockets open (created and not yet closed), by type."));
    }

    internal static void ContextOpened() => Interlocked.Increment(ref s_openContexts);

    internal static void ContextClosed() => Interlocked.Decrement(ref s_openContexts);

    internal static void SocketOpened(int type)
    {
        if ((uint)type < (uint)s_openSockets.Length)
        {
            s_typeSeen[type] = true;
            Interlocked.Increment(ref s_openSockets[type]);
        }
    }

    internal static void SocketClosed(int type)
    {
        if ((uint)type < (uint)s_openSockets.Length)
        {
            Interlocked.Decrement(ref s_openSockets[type]);
        }
    }

    /// <summary>Counts one answered ZAP request; <paramref name="statusCode"/> is the reply's ("200", "400", "500").</summary>
    internal static void ZapAnswered(string mechanism, string statusCode)
    {
        if (s_zapRequests is not { Enabled: true } zapRequests)
        {
            return;
        }

        string result = statusCode switch
        {
            "200" => "allowed",
            "400" => "denied",
            _ => "error",
        };
        string mechanismTag = mechanism switch
        {
            "NULL" => "null",
            "PLAIN" => "plain",
            "CURVE" => "curve",
            "GSSAPI" => "gssapi",
            _ => "other",
        };
        zapRequests.Add(1, new KeyValuePair<string, object?>("mechanism", mechanismTag), new KeyValuePair<string, object?>("result", result));
    }

    /// <summary>Counts an event a <see cref="SocketMonitor"/> read from a socket of <paramref name="type"/>.</summary>
    internal static void MonitorEventRead(SocketEvents socketEvent, SocketType type)
    {
        Counter<long>? counter = socketEvent switch
        {
            SocketEvents.Accepted => s_accepted,
            SocketEvents.Connected => s_connected,
            SocketEvents.Disconnected => s_disconnected,
            SocketEvents.HandshakeSucceeded => s_handshakesSucceeded,
            SocketEvents.HandshakeFailedNoDetail or SocketEvents.HandshakeFailedProtocol or SocketEvents.HandshakeFailedAuth => s_handshakesFailed,
            _ => null,
        };
        if (counter is null || !counter.Enabled)
        {
            return;
        }

        var typeTag = new KeyValuePair<string, object?>("socket.type", TypeName((int)type));
        if (counter == s_handshakesFailed)
        {
            string reason = socketEvent switch
            {
                SocketEvents.HandshakeFailedAuth => "auth",
                SocketEvents.HandshakeFailedProtocol => "protocol",
                _ => "no_detail",
            };
            counter.Add(1, typeTag, new KeyValuePair<string, object?>("reason", reason));
        }
        else
        {
            counter.Add(1, typeTag);
        }
    }

    /// <summary>
    /// Creates an instrument; null when a MeterListener threw while it was published (its InstrumentPublished runs
    /// inside the creation). That instrument is then left out, reported on Trace, rather than failing this type and,
    /// with it, every context and socket.
    /// </summary>
    private static T? Create<T>(Func<Meter, T> create)
        where T : Instrument
    {
        try
        {
            return create(Meter);
        }
#pragma warning disable CA1031 // A listener's exception must not make the library unusable.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Trace.TraceError($"Net.Zmq metrics: a MeterListener threw while an instrument of the Net.Zmq meter was published; it is left out. {ex}");
            return null;
        }
    }

    private static IEnumerable<Measurement<long>> ObserveSockets()
    {
        for (int type = 0; type < s_openSockets.Length; type++)
        {
            if (Volatile.Read(ref s_typeSeen[type]))
            {
                yield return new Measurement<long>(
                    Volatile.Read(ref s_openSockets[type]), new KeyValuePair<string, object?>("socket.type", s_typeNames[type]));
            }
        }
    }

    private static string TypeName(int type) => (uint)type < (uint)s_typeNames.Length ? s_typeNames[type] : "other";

    private static string[] CreateTypeNames()
    {
        var names = new string[(int)Enum.GetValues<SocketType>().Max() + 1];
        for (int type = 0; type < names.Length; type++)
        {
            names[type] = Enum.IsDefined((SocketType)type) ? ((SocketType)type).ToString().ToLowerInvariant() : "other";
        }

        return names;
    }
}
