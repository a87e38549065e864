using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Threading.Channels;

namespace Net.Zmq.Reliability.Tests.Support;

/// <summary>
/// A TCP relay that holds every chunk of bytes for <see cref="Delay"/> before passing it on, in each direction, in
/// order: link delay in user space, for kernels without the netem qdisc. It accepts connections on
/// <see cref="Endpoint"/> and opens one to the target for each.
/// </summary>
internal sealed class DelayRelay : IDisposable
{
    private readonly TcpListener _listener;
    private readonly IPEndPoint _target;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<System.Net.Sockets.Socket> _sockets = [];
    private readonly Lock _lock = new();

    /// <summary>Listens on <paramref name="listenAddress"/> (any port) and relays to <paramref name="target"/>.</summary>
    public DelayRelay(IPAddress listenAddress, IPEndPoint target, TimeSpan delay)
    {
        _target = target;
        Delay = delay;
        _listener = new TcpListener(listenAddress, 0);
        _listener.Start();
        var local = (IPEndPoint)_listener.LocalEndpoint;
        Endpoint = $"tcp://{local.Address}:{local.Port}";
        _ = AcceptAsync();
    }

    /// <summary>The relay's address as a ZeroMQ endpoint.</summary>
    public string Endpoint { get; }

    /// <summary>How long each chunk is held, in each direction.</summary>
    public TimeSpan Delay { get; }

    /// <summary>Connections accepted so far.</summary>
    public int Connections { get; private set; }

    /// <inheritdoc />
    public void Dispose()
    {
        _stop.Cancel();
        _listener.Stop();
        lock (_lock)
        {
            foreach (System.Net.Sockets.Socket socket in _sockets)
            {
                socket.Dispose();
            }
        }

        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                System.Net.Sockets.Socket inbound = await _listener.AcceptSocketAsync(_stop.Token);
                var outbound = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                inbound.NoDelay = true;
                lock (_lock)
                {
                    _sockets.Add(inbound);
                    _sockets.Add(outbound);
                    Connections++;
                }

                await outbound.ConnectAsync(_target, _stop.Token);
                _ = PumpAsync(inbound, outbound);
                _ = PumpAsync(outbound, inbound);
            }
        }
        catch (Exception ex) when (_stop.IsCancellationRequested && ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
    }

    private async Task PumpAsync(System.Net.Sockets.Socket from, System.Net.Sockets.Socket to)
    {
        var chunks = Channel.CreateUnbounded<(long Due, byte[] Bytes)>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        Task writer = WriteDelayedAsync(chunks.Reader, from, to);
        try
        {
            var buffer = new byte[64 * 1024];
            while (true)
            {
                int read = await from.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (read == 0)
                {
                    break;
                }

                long due = Stopwatch.GetTimestamp() + (long)(Delay.TotalSeconds * Stopwatch.Frequency);
                await chunks.Writer.WriteAsync((due, buffer[..read]), _stop.Token);
            }
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // A reset, a closed peer or Dispose ends this direction; the writer then finishes the other side.
        }

        chunks.Writer.TryComplete();
        await writer;
    }

    private async Task WriteDelayedAsync(ChannelReader<(long Due, byte[] Bytes)> chunks, System.Net.Sockets.Socket from, System.Net.Sockets.Socket to)
    {
        try
        {
            await foreach ((long due, byte[] bytes) in chunks.ReadAllAsync(_stop.Token))
            {
                // Task.Delay counts whole milliseconds and may wake a little early: wait until the clock says so.
                TimeSpan wait;
                while ((wait = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), due)) > TimeSpan.Zero)
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(Math.Ceiling(wait.TotalMilliseconds)), _stop.Token);
                }

                await to.SendAsync(bytes, SocketFlags.None, _stop.Token);
            }

            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // Either side went away: close both so the ZeroMQ peers see the connection drop and reconnect.
            from.Dispose();
            to.Dispose();
        }
    }
}
