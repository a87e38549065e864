using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;
using System.Text;
using Net.Zmq.Internal;
using UdpSocket = System.Net.Sockets.Socket;

namespace Net.Zmq.Discovery;

/// <summary>
/// Peer discovery on a LAN over UDP broadcast (CZMQ's <c>zbeacon</c>, NetMQ's <c>NetMQBeacon</c>): every node
/// publishes a small payload (typically how to reach it, such as a port) to one UDP port at an interval, and listens on
/// that port for the payloads of the others. Several beacons on one host share the port.
/// </summary>
/// <remarks>
/// <para>
/// <b>Wire format:</b> a beacon datagram is the payload and nothing else: 1 to <see cref="MaxPayloadSize"/> bytes, no
/// header, no length, no terminator, sent to <see cref="BroadcastAddress"/>:<see cref="Port"/> from an ephemeral port.
/// It is the format of zbeacon and NetMQBeacon, so they can discover each other. Received datagrams that are empty or
/// longer than <see cref="MaxPayloadSize"/> are dropped.
/// </para>
/// <para>
/// IPv4 only. The listening socket is bound to 0.0.0.0:<see cref="Port"/> with address reuse, so it also receives
/// datagrams sent to this host's own addresses on that port.
/// </para>
/// <para>
/// <see cref="Publish(ReadOnlySpan{byte}, TimeSpan)"/>, <see cref="Silence"/>, <see cref="Subscribe(ReadOnlySpan{byte})"/>
/// and <see cref="Unsubscribe"/> may be called from any thread. One receive (<see cref="TryRecv"/> or
/// <see cref="RecvAsync"/>) at a time.
/// </para>
/// <para>Dispose it: while it publishes, its timer keeps it alive and sending even when nothing references it.</para>
/// </remarks>
/// <example>
/// <code>
/// using var beacon = new Beacon(9999);
/// beacon.Publish("tcp-port=5670", TimeSpan.FromSeconds(1));
/// beacon.Subscribe("tcp-port=");
/// beacon.IgnoreOwnTransmissions = true;
/// if (beacon.TryRecv(TimeSpan.FromSeconds(5), out BeaconMessage? peer))
/// {
///     Console.WriteLine($"{peer.PeerAddress} says {peer.PayloadText}");
/// }
/// </code>
/// </example>
public sealed class Beacon : IDisposable
{
    /// <summary>The largest payload a beacon carries, in bytes (as zbeacon's).</summary>
    public const int MaxPayloadSize = 255;

    private static readonly IPEndPoint s_anyEndPoint = new(IPAddress.Any, 0);
    private static readonly TimeSpan s_localAddressRefresh = TimeSpan.FromSeconds(1);

    private readonly UdpSocket _receiver;
    private readonly UdpSocket _sender;
    private readonly IPEndPoint _destination;
    private readonly int _senderPort;
    private readonly byte[] _buffer = new byte[MaxPayloadSize + 1];
    private readonly Timer _timer;
    private readonly object _gate = new();
    private byte[]? _payload;
    private TimeSpan _interval;
    private volatile byte[]? _filter;
    private volatile bool _disposed;
    private int _receiving;
    private HashSet<IPAddress> _localAddresses = [];
    private long _localAddressesReadAt;

    /// <summary>Listens on UDP <paramref name="port"/> and publishes to the limited broadcast address, 255.255.255.255.</summary>
    /// <param name="port">The UDP port every peer uses. 0 picks a free one (read it back from <see cref="Port"/>), which suits tests.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="port"/> is not between 0 and 65535.</exception>
    /// <exception cref="SocketException">The port cannot be bound.</exception>
    public Beacon(int port)
        : this(port, IPAddress.Broadcast)
    {
    }

    /// <summary>Listens on UDP <paramref name="port"/> and publishes to <paramref name="broadcastAddress"/>.</summary>
    /// <param name="port">The UDP port every peer uses. 0 picks a free one (read it back from <see cref="Port"/>), which suits tests.</param>
    /// <param name="broadcastAddress">
    /// Where beacons go: 255.255.255.255 (every interface's LAN, as routed), an interface's own broadcast address such
    /// as 192.168.1.255 (that LAN only), 127.255.255.255 (this host only, through loopback), or a unicast address.
    /// </param>
    /// <exception cref="ArgumentNullException"><paramref name="broadcastAddress"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="broadcastAddress"/> is not an IPv4 address.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="port"/> is not between 0 and 65535.</exception>
    /// <exception cref="SocketException">The port cannot be bound.</exception>
    public Beacon(int port, IPAddress broadcastAddress)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(port);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(port, IPEndPoint.MaxPort);
        ArgumentNullException.ThrowIfNull(broadcastAddress);
        if (broadcastAddress.AddressFamily != AddressFamily.InterNetwork)
        {
            ThrowHelper.ThrowArgument("A beacon broadcasts over IPv4: give an IPv4 address.", nameof(broadcastAddress));
        }

        _receiver = new UdpSocket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        _sender = new UdpSocket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        try
        {
            if (OperatingSystem.IsWindows())
            {
                _receiver.ExclusiveAddressUse = false;
            }

            // Every beacon on the host binds the same port; broadcasts reach them all.
            _receiver.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
            _receiver.Bind(new IPEndPoint(IPAddress.Any, port));
            Port = ((IPEndPoint)_receiver.LocalEndPoint!).Port;
            _sender.EnableBroadcast = true;
            _sender.Bind(new IPEndPoint(IPAddress.Any, 0));
            _senderPort = ((IPEndPoint)_sender.LocalEndPoint!).Port;
        }
        catch
        {
            _receiver.Dispose();
            _sender.Dispose();
            throw;
        }

        BroadcastAddress = broadcastAddress;
        _destination = new IPEndPoint(broadcastAddress, Port);
        _timer = new Timer(static state => ((Beacon)state!).Transmit(), this, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>The UDP port beacons are sent to and received on.</summary>
    public int Port { get; }

    /// <summary>The address beacons are sent to.</summary>
    public IPAddress BroadcastAddress { get; }

    /// <summary>
    /// The OS handle of the listening UDP socket, to wait on beside ZeroMQ sockets with
    /// <see cref="Poller.Add(nint, PollEvents)"/> and <see cref="PollEvents.In"/>. Readable means a datagram is
    /// waiting; read it with <see cref="TryRecv"/> and <see cref="TimeSpan.Zero"/>, which returns false when the
    /// filter or the echo rule drops it. Do not read or write the socket through the handle.
    /// </summary>
    public nint Handle => _receiver.Handle;

    /// <summary>
    /// Whether receives skip this beacon's own transmissions (CZMQ's <c>noecho</c>); false unless set. A datagram is
    /// this beacon's own when it comes from one of this host's addresses and from the port this beacon sends from,
    /// whatever its payload, so a peer publishing the same payload is still seen.
    /// </summary>
    public bool IgnoreOwnTransmissions { get; set; }

    /// <summary>Whether the beacon is publishing (between <see cref="Publish(ReadOnlySpan{byte}, TimeSpan)"/> and <see cref="Silence"/>).</summary>
    public bool IsPublishing
    {
        get
        {
            lock (_gate)
            {
                return _payload is not null;
            }
        }
    }

    /// <summary>
    /// Starts publishing <paramref name="payload"/>: one datagram now, then one every <paramref name="interval"/>,
    /// until <see cref="Silence"/> or <see cref="Dispose"/>. Replaces what was published before.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="payload"/> is empty or longer than <see cref="MaxPayloadSize"/> bytes.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="interval"/> is not positive, or above int.MaxValue milliseconds.</exception>
    /// <exception cref="SocketException">The first datagram could not be sent (for example no route to the broadcast address).</exception>
    /// <exception cref="ObjectDisposedException">The beacon was disposed.</exception>
    public void Publish(ReadOnlySpan<byte> payload, TimeSpan interval)
    {
        if (payload.IsEmpty || payload.Length > MaxPayloadSize)
        {
            ThrowHelper.ThrowArgument(
                $"A beacon's payload must hold 1 to {MaxPayloadSize} bytes; this one has {payload.Length}.", nameof(payload));
        }

        if (interval <= TimeSpan.Zero || interval.TotalMilliseconds > int.MaxValue)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(interval), interval, "The interval must be positive and at most int.MaxValue milliseconds.");
        }

        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _payload = payload.ToArray();
            _interval = interval;
            try
            {
                _sender.SendTo(_payload, _destination);
            }
            catch
            {
                _payload = null;
                _timer.Change(Timeout.Infinite, Timeout.Infinite);
                throw;
            }

            _timer.Change(interval, interval);
        }
    }

    /// <summary>Starts publishing the UTF-8 bytes of <paramref name="payload"/>; see <see cref="Publish(ReadOnlySpan{byte}, TimeSpan)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="payload"/> is null.</exception>
    /// <exception cref="ArgumentException">The encoded payload is empty or longer than <see cref="MaxPayloadSize"/> bytes.</exception>
    public void Publish(string payload, TimeSpan interval)
    {
        ArgumentNullException.ThrowIfNull(payload);
        int size = Encoding.UTF8.GetByteCount(payload);
        if (size > MaxPayloadSize)
        {
            ThrowHelper.ThrowArgument(
                $"A beacon's payload must hold 1 to {MaxPayloadSize} bytes; this one has {size} in UTF-8.", nameof(payload));
        }

        Span<byte> bytes = stackalloc byte[size];
        Encoding.UTF8.GetBytes(payload, bytes);
        Publish(bytes, interval);
    }

    /// <summary>Stops publishing. No datagram is sent once it returns (one sent just before may still be on its way). Does nothing when silent.</summary>
    public void Silence()
    {
        lock (_gate)
        {
            _payload = null;
            if (!_disposed)
            {
                _timer.Change(Timeout.Infinite, Timeout.Infinite);
            }
        }
    }

    /// <summary>
    /// Receives the beacons whose payload starts with <paramref name="prefix"/> (empty: every beacon), replacing the
    /// previous filter. A beacon receives nothing until subscribed.
    /// </summary>
    public void Subscribe(ReadOnlySpan<byte> prefix) => _filter = prefix.ToArray();

    /// <summary>Receives the beacons whose payload starts with the UTF-8 bytes of <paramref name="prefix"/> ("": every beacon); see <see cref="Subscribe(ReadOnlySpan{byte})"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="prefix"/> is null.</exception>
    public void Subscribe(string prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        _filter = Encoding.UTF8.GetBytes(prefix);
    }

    /// <summary>Stops receiving: receives after it throw, and a receive in progress drops what arrives until it times out.</summary>
    public void Unsubscribe() => _filter = null;

    /// <summary>
    /// Waits up to <paramref name="timeout"/> (<see cref="Timeout.InfiniteTimeSpan"/>: forever) for a beacon that
    /// passes the filter (and is not this beacon's own, with <see cref="IgnoreOwnTransmissions"/>).
    /// </summary>
    /// <returns>True with the beacon; false when none came in time.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or too large.</exception>
    /// <exception cref="InvalidOperationException">Not subscribed, or another receive is in progress.</exception>
    /// <exception cref="ObjectDisposedException">The beacon was disposed (also while waiting).</exception>
    public bool TryRecv(TimeSpan timeout, [NotNullWhen(true)] out BeaconMessage? message)
    {
        int timeoutMs = OptionValues.ToMilliseconds(timeout, nameof(timeout));
        BeginReceive();
        try
        {
            long start = Stopwatch.GetTimestamp();
            while (true)
            {
                int waitMs = timeoutMs < 0 ? -1 : Math.Max(0, timeoutMs - (int)Stopwatch.GetElapsedTime(start).TotalMilliseconds);
                if (_receiver.Poll(PollMicroseconds(waitMs), SelectMode.SelectRead))
                {
                    EndPoint from = s_anyEndPoint;
                    int size = -1;
                    try
                    {
                        size = _receiver.ReceiveFrom(_buffer, ref from);
                    }
                    catch (SocketException ex) when (IsDroppedDatagram(ex))
                    {
                    }

                    if (size >= 0 && Accept(size, (IPEndPoint)from, out message))
                    {
                        return true;
                    }
                }
                else
                {
                    ObjectDisposedException.ThrowIf(_disposed, this);
                }

                // Checked after every datagram the filter dropped too: under a stream of them the socket never stops
                // being readable, and the deadline must still end the call.
                if (waitMs == 0 || (timeoutMs >= 0 && Stopwatch.GetElapsedTime(start).TotalMilliseconds >= timeoutMs))
                {
                    message = null;
                    return false;
                }
            }
        }
        catch (Exception ex) when (_disposed && ex is SocketException or ObjectDisposedException)
        {
            throw new ObjectDisposedException(GetType().FullName, "The beacon was disposed while receiving.");
        }
        finally
        {
            Volatile.Write(ref _receiving, 0);
        }
    }

    /// <summary>Waits for a beacon that passes the filter (and is not this beacon's own, with <see cref="IgnoreOwnTransmissions"/>).</summary>
    /// <exception cref="InvalidOperationException">Not subscribed, or another receive is in progress.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    /// <exception cref="ObjectDisposedException">The beacon was disposed (also while waiting).</exception>
    public async ValueTask<BeaconMessage> RecvAsync(CancellationToken cancellationToken = default)
    {
        BeginReceive();
        try
        {
            while (true)
            {
                SocketReceiveFromResult result;
                try
                {
                    result = await _receiver.ReceiveFromAsync(_buffer, SocketFlags.None, s_anyEndPoint, cancellationToken).ConfigureAwait(false);
                }
                catch (SocketException ex) when (!_disposed && IsDroppedDatagram(ex))
                {
                    continue;
                }

                if (Accept(result.ReceivedBytes, (IPEndPoint)result.RemoteEndPoint, out BeaconMessage? message))
                {
                    return message;
                }
            }
        }
        catch (Exception ex) when (_disposed && ex is SocketException or ObjectDisposedException)
        {
            throw new ObjectDisposedException(GetType().FullName, "The beacon was disposed while receiving.");
        }
        finally
        {
            Volatile.Write(ref _receiving, 0);
        }
    }

    /// <summary>Stops publishing and closes both UDP sockets; a receive in progress throws <see cref="ObjectDisposedException"/>. Calling it again does nothing.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            _payload = null;
            _timer.Dispose();
        }

        _sender.Dispose();
        _receiver.Dispose();
    }

    /// <inheritdoc />
    public override string ToString() => $"beacon on UDP port {Port} to {BroadcastAddress}";

    /// <summary>Whether <see cref="Dispose"/> was called (an <see cref="EventLoop"/> then stops watching it).</summary>
    internal bool IsDisposed => _disposed;

    private void BeginReceive()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_filter is null)
        {
            throw new InvalidOperationException("The beacon is not subscribed: call Subscribe first (Subscribe(\"\") receives every beacon).");
        }

        if (Interlocked.CompareExchange(ref _receiving, 1, 0) != 0)
        {
            throw new InvalidOperationException("Another receive is in progress on this beacon: receive from one thread, one call at a time.");
        }
    }

    // Socket.Poll counts microseconds in an int (about 35 minutes): a longer wait goes round TryRecv's loop again.
    private static int PollMicroseconds(int waitMs) => waitMs < 0 ? -1 : (int)Math.Min(waitMs * 1000L, int.MaxValue);

    // Windows reports a datagram longer than the buffer (and an ICMP port-unreachable) as an error on the next receive.
    private static bool IsDroppedDatagram(SocketException ex) =>
        ex.SocketErrorCode is SocketError.MessageSize or SocketError.ConnectionReset;

    private bool Accept(int size, IPEndPoint from, [NotNullWhen(true)] out BeaconMessage? message)
    {
        message = null;
        byte[]? filter = _filter;
        if (size <= 0 || size > MaxPayloadSize || filter is null)
        {
            return false;
        }

        ReadOnlySpan<byte> payload = _buffer.AsSpan(0, size);
        if (!payload.StartsWith(filter) || (IgnoreOwnTransmissions && IsOwn(from)))
        {
            return false;
        }

        message = new BeaconMessage(from, payload.ToArray());
        return true;
    }

    private bool IsOwn(IPEndPoint from)
    {
        // The sending socket holds its port on every address of this host, so a datagram from that port and a local
        // address is ours.
        if (from.Port != _senderPort)
        {
            return false;
        }

        if (IPAddress.IsLoopback(from.Address) || _localAddresses.Contains(from.Address))
        {
            return true;
        }

        if (Stopwatch.GetElapsedTime(_localAddressesReadAt) < s_localAddressRefresh && _localAddressesReadAt != 0)
        {
            return false;
        }

        _localAddresses = ReadLocalAddresses();
        _localAddressesReadAt = Stopwatch.GetTimestamp();
        return _localAddresses.Contains(from.Address);
    }

    private static HashSet<IPAddress> ReadLocalAddresses()
    {
        HashSet<IPAddress> addresses = [];
        try
        {
            foreach (NetworkInterface networkInterface in NetworkInterface.GetAllNetworkInterfaces())
            {
                foreach (UnicastIPAddressInformation address in networkInterface.GetIPProperties().UnicastAddresses)
                {
                    addresses.Add(address.Address);
                }
            }
        }
        catch (NetworkInformationException)
        {
            // Interfaces cannot be listed here: only loopback counts as local.
        }

        return addresses;
    }

    private void Transmit()
    {
        lock (_gate)
        {
            if (_payload is null || _disposed)
            {
                return;
            }

            try
            {
                _sender.SendTo(_payload, _destination);
            }
            catch (SocketException)
            {
                // The network may come back (an interface going down and up): keep the schedule.
            }
        }
    }
}
