using System.Runtime.InteropServices;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// One background thread per process that waits, with epoll, on the <c>ZMQ_FD</c> of every socket that has been
/// used asynchronously, and pumps a socket's parked operations when its descriptor signals. The descriptor is
/// registered edge-triggered: libzmq signals it once per batch of commands, and every pump ends by reading
/// <c>ZMQ_EVENTS</c>, which drains those commands and re-arms the signal. The thread never blocks in libzmq and
/// never runs user code: completed operations resume on the thread pool.
/// </summary>
internal sealed unsafe class SocketReactor
{
    private const int MaxEventsPerWait = 64;

    private static readonly object s_creation = new();
    private static SocketReactor? s_instance;

    private readonly int _epoll;
    private readonly object _slotsGate = new();
    private SocketAsyncState?[] _slots = new SocketAsyncState?[64];
    private readonly Stack<int> _freeSlots = new();
    private int _nextSlot;

    private SocketReactor(int epoll)
    {
        _epoll = epoll;
        var thread = new Thread(Run) { IsBackground = true, Name = "Net.Zmq reactor" };
        thread.Start();
    }

    /// <summary>The process's reactor, started on first use.</summary>
    /// <exception cref="PlatformNotSupportedException">Not on Linux.</exception>
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
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException(
                "Net.Zmq's async operations wait on libzmq's ZMQ_FD with epoll, which this operating system lacks. " +
                "Use the blocking or DontWait methods, or a Poller, here.");
        }

        int epoll = Epoll.Create(Epoll.CloseOnExec);
        if (epoll < 0)
        {
            throw new InvalidOperationException($"epoll_create1 failed (errno {Marshal.GetLastPInvokeError()}); async operations are unavailable.");
        }

        return new SocketReactor(epoll);
    }

    /// <summary>Watches <paramref name="fd"/> for <paramref name="state"/>; returns the slot to pass to <see cref="Unregister"/>.</summary>
    internal int Register(SocketAsyncState state, int fd)
    {
        int slot;
        lock (_slotsGate)
        {
            slot = _freeSlots.Count > 0 ? _freeSlots.Pop() : _nextSlot++;
            if (slot == _slots.Length)
            {
                var grown = new SocketAsyncState?[_slots.Length * 2];
                Array.Copy(_slots, grown, _slots.Length);
                Volatile.Write(ref _slots, grown);
            }

            Volatile.Write(ref _slots[slot], state);
        }

        byte* ev = stackalloc byte[16];
        Epoll.WriteEvent(ev, Epoll.In | Epoll.EdgeTriggered, (ulong)slot);
        if (Epoll.Control(_epoll, Epoll.Add, fd, ev) != 0)
        {
            int error = Marshal.GetLastPInvokeError();
            Release(slot);
            throw new InvalidOperationException($"epoll_ctl could not watch the socket's ZMQ_FD {fd} (errno {error}).");
        }

        return slot;
    }

    /// <summary>Stops watching <paramref name="fd"/>; call before the socket is closed.</summary>
    internal void Unregister(int slot, int fd)
    {
        byte* ev = stackalloc byte[16];
        Epoll.WriteEvent(ev, 0, 0);
        Epoll.Control(_epoll, Epoll.Delete, fd, ev);
        Release(slot);
    }

    private void Release(int slot)
    {
        lock (_slotsGate)
        {
            Volatile.Write(ref _slots[slot], null);
            _freeSlots.Push(slot);
        }
    }

    private void Run()
    {
        byte* events = stackalloc byte[MaxEventsPerWait * 16];
        while (true)
        {
            int count = Epoll.Wait(_epoll, events, MaxEventsPerWait, -1);
            if (count < 0)
            {
                // EINTR is routine; anything else would repeat forever, so back off instead of spinning.
                if (Marshal.GetLastPInvokeError() != Epoll.EINTR)
                {
                    Thread.Sleep(10);
                }

                continue;
            }

            SocketAsyncState?[] slots = Volatile.Read(ref _slots);
            for (int i = 0; i < count; i++)
            {
                ulong slot = Epoll.ReadData(events, i);
                if (slot < (ulong)slots.Length && Volatile.Read(ref slots[slot]) is { } state)
                {
                    state.Pump();
                }
            }
        }
    }
}
