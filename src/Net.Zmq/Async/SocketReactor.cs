namespace Net.Zmq.Async;

/// <summary>
/// One background thread per process that waits on the <c>ZMQ_FD</c> of every socket that has been used
/// asynchronously, and pumps a socket's parked operations when its descriptor signals. Every pump ends by reading
/// <c>ZMQ_EVENTS</c>, which drains libzmq's pending commands and so re-arms the signal. The thread never blocks in
/// libzmq and never runs user code: completed operations resume on the thread pool. How it waits is the operating
/// system's: epoll on Linux (<see cref="EpollReactor"/>), WSAPoll on Windows (<see cref="WSAPollReactor"/>).
/// </summary>
internal abstract class SocketReactor
{
    private static readonly object s_creation = new();
    private static SocketReactor? s_instance;

    private readonly object _slotsGate = new();
    private readonly Stack<int> _freeSlots = new();
    private SocketAsyncDriver?[] _slots = new SocketAsyncDriver?[64];
    private int _nextSlot;

    /// <summary>The process's reactor, started on first use.</summary>
    /// <exception cref="PlatformNotSupportedException">Neither Linux nor Windows.</exception>
    internal static SocketReactor Instance
    {
        get
        {
            if (Volatile.Read(ref s_instance) is { } reactor)
            {
                return reactor;
            }

            lock (s_creation)
            {
                return s_instance ??= Start();
            }
        }
    }

    private static SocketReactor Start()
    {
        SocketReactor reactor = OperatingSystem.IsLinux() ? new EpollReactor()
            : OperatingSystem.IsWindows() ? new WSAPollReactor()
            : throw new PlatformNotSupportedException(
                "Net.Zmq's async operations wait on libzmq's ZMQ_FD with epoll (Linux) or WSAPoll (Windows); this " +
                "operating system has neither here. Use the blocking or DontWait methods, or a Poller.");
        var thread = new Thread(reactor.Run) { IsBackground = true, Name = "Net.Zmq reactor" };
        thread.Start();
        return reactor;
    }

    /// <summary>Watches <paramref name="fd"/> for <paramref name="driver"/>; returns the slot to pass to <see cref="Unregister"/>.</summary>
    internal int Register(SocketAsyncDriver driver, nint fd)
    {
        int slot;
        lock (_slotsGate)
        {
            slot = _freeSlots.Count > 0 ? _freeSlots.Pop() : _nextSlot++;
            if (slot == _slots.Length)
            {
                var grown = new SocketAsyncDriver?[_slots.Length * 2];
                Array.Copy(_slots, grown, _slots.Length);
                Volatile.Write(ref _slots, grown);
            }

            Volatile.Write(ref _slots[slot], driver);
        }

        try
        {
            Watch(fd, slot);
        }
        catch
        {
            Release(slot);
            throw;
        }

        return slot;
    }

    /// <summary>Stops watching <paramref name="fd"/>; call before the socket is closed.</summary>
    internal void Unregister(int slot, nint fd)
    {
        Unwatch(fd, slot);
        Release(slot);
    }

    /// <summary>Starts waiting on <paramref name="fd"/>, reporting it as <paramref name="slot"/>.</summary>
    protected abstract void Watch(nint fd, int slot);

    /// <summary>Stops waiting on <paramref name="fd"/>.</summary>
    protected abstract void Unwatch(nint fd, int slot);

    /// <summary>The reactor thread: waits and calls <see cref="Dispatch"/> for each descriptor that signalled.</summary>
    protected abstract void Run();

    /// <summary>Pumps the socket in <paramref name="slot"/>; false when its gate was held, so the pump was left to the holder.</summary>
    protected bool Dispatch(ulong slot)
    {
        SocketAsyncDriver?[] slots = Volatile.Read(ref _slots);
        return slot >= (ulong)slots.Length || Volatile.Read(ref slots[slot]) is not { } driver || driver.Pump();
    }

    private void Release(int slot)
    {
        lock (_slotsGate)
        {
            Volatile.Write(ref _slots[slot], null);
            _freeSlots.Push(slot);
        }
    }
}
