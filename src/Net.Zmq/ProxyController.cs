using System.Runtime.InteropServices;
using Net.Zmq.Internal;

namespace Net.Zmq;

/// <summary>
/// Steers a proxy started with <see cref="Proxy.StartSteerable"/>: sends it PAUSE, RESUME, TERMINATE and STATISTICS
/// over a PAIR socket connected to the proxy's PAIR control socket. The controller does not own the socket: dispose
/// it yourself. Like any socket, use a controller from one thread at a time.
/// </summary>
/// <remarks>
/// PAIR is the only pairing that works for every command with libzmq 4.3.x: a REQ controller facing a REP control
/// socket waits forever for a reply to PAUSE, RESUME or TERMINATE, which libzmq 4.3.x never sends.
/// </remarks>
/// <example>
/// <code>
/// using var control = new Socket(context, SocketType.Pair);
/// control.Bind("inproc://proxy-control");
/// var proxyThread = new Thread(() => Proxy.StartSteerable(frontend, backend, null, control));
/// proxyThread.Start();
///
/// using var steering = new Socket(context, SocketType.Pair);
/// steering.Connect("inproc://proxy-control");
/// var controller = new ProxyController(steering);
/// controller.Pause();
/// controller.Resume();
/// ProxyStatistics statistics = controller.GetStatistics();
/// controller.Terminate();
/// proxyThread.Join();
/// </code>
/// </example>
public sealed class ProxyController
{
    private const int StatisticsFrames = 8;

    /// <summary>Creates a controller that sends commands on <paramref name="socket"/>, a PAIR socket connected to the proxy's control socket.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="socket"/> is not a PAIR socket.</exception>
    public ProxyController(Socket socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        if (socket.Type != SocketType.Pair)
        {
            ThrowHelper.ThrowArgument(
                $"A proxy controller needs a PAIR socket connected to the proxy's PAIR control socket, not a {socket.Type} socket: " +
                "libzmq 4.3 answers only STATISTICS, so REQ/REP locks up after PAUSE, RESUME or TERMINATE.",
                nameof(socket));
        }

        Socket = socket;
    }

    /// <summary>The socket the commands are sent on.</summary>
    public Socket Socket { get; }

    /// <summary>Sends PAUSE: the proxy stops forwarding (messages wait in the queues) until <see cref="Resume"/>. No reply is sent.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ZmqException">The command could not be sent (EAGAIN after the socket's SendTimeout, ETERM, ...).</exception>
    public void Pause() => Send("PAUSE"u8);

    /// <summary>Sends RESUME: a paused proxy forwards again, starting with the messages that waited. No reply is sent.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ZmqException">The command could not be sent.</exception>
    public void Resume() => Send("RESUME"u8);

    /// <summary>Sends TERMINATE: the proxy returns, and <see cref="Proxy.StartSteerable"/> with it, quietly. No reply is sent.</summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ZmqException">The command could not be sent.</exception>
    public void Terminate() => Send("TERMINATE"u8);

    /// <summary>
    /// Sends STATISTICS and waits for the reply: 8 frames of 64-bit counters in the proxy's byte order (this machine's,
    /// unless the proxy runs on another architecture). Waits as long as the socket's <see cref="SocketOption.ReceiveTimeout"/>.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="ZmqException">EAGAIN: no reply within the ReceiveTimeout (a late reply is then read by the next call); ETERM, ...</exception>
    /// <exception cref="InvalidOperationException">The reply was not 8 frames of 8 bytes: the socket is not talking to a proxy's control socket.</exception>
    public ProxyStatistics GetStatistics()
    {
        Send("STATISTICS"u8);
        Span<ulong> values = stackalloc ulong[StatisticsFrames];
        Span<byte> ignored = stackalloc byte[sizeof(ulong)];
        int frames = 0;
        bool wellFormed = true;
        do
        {
            Span<byte> slot = frames < StatisticsFrames ? MemoryMarshal.AsBytes(values.Slice(frames, 1)) : ignored;
            int size = Socket.Recv(slot);
            wellFormed &= size == sizeof(ulong);
            frames++;
        }
        while (Socket.HasMore);

        if (!wellFormed || frames != StatisticsFrames)
        {
            ThrowHelper.ThrowInvalidOperation(
                $"The reply to STATISTICS had {frames} frames, not {StatisticsFrames} frames of {sizeof(ulong)} bytes: " +
                "the controller's socket is not connected to a steerable proxy's control socket.");
        }

        return new ProxyStatistics(values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]);
    }

    private void Send(ReadOnlySpan<byte> command) => Socket.Send(command);
}
