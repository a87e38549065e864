namespace Net.Zmq.Benchmarks;

/// <summary>
/// PULL sockets bound to inproc endpoints that nobody connects to, each with a <c>RecvAsync</c> parked that completes
/// only when the socket is closed: sockets in async use that cost nothing but their registration.
/// </summary>
internal sealed class ParkedSockets
{
    private readonly byte[] _buffer = new byte[64];
    private readonly List<Socket> _sockets;
    private readonly List<Task<int>> _pending;

    public ParkedSockets(Context context, string name, int count)
    {
        _sockets = new List<Socket>(count);
        _pending = new List<Task<int>>(count);
        for (int i = 0; i < count; i++)
        {
            var socket = new Socket(context, SocketType.Pull);
            socket.Bind($"inproc://{name}-{i}");
            _sockets.Add(socket);
            _pending.Add(socket.RecvAsync(_buffer.AsMemory()).AsTask());
        }
    }

    /// <summary>Closes every socket; returns how many parked receives then ended with ObjectDisposedException (waiting 10 s at most in all).</summary>
    public int Close()
    {
        foreach (Socket socket in _sockets)
        {
            socket.Dispose();
        }

        try
        {
            Task.WaitAll([.. _pending], TimeSpan.FromSeconds(10));
        }
        catch (AggregateException)
        {
            // Expected: every receive fails; they are counted below.
        }

        return _pending.Count(t => t.Exception?.InnerException is ObjectDisposedException);
    }
}
