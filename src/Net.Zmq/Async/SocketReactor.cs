using System.Diagnostics;

namespace Net.Zmq.Async;

/// <summary>
/// Waits, for the whole process, on the <c>ZMQ_FD</c> of every socket that has been used asynchronously, and pumps
/// a socket's parked operations when its descriptor signals. Every pump ends by reading <c>ZMQ_EVENTS</c>, which
/// drains libzmq's pending commands and so re-arms the signal. How it waits is the operating system's: epoll on Linux
/// (<see cref="EpollReactor"/>), WSAPoll on Windows (<see cref="WSAPollReactor"/>).
/// </summary>
/// <remarks>
/// A few background threads named "Net.Zmq reactor" wait together (<see cref="WaitingThreads"/>; the kernel wakes one
/// of them per signal). The thread a signal woke pumps the sockets that signalled; the awaiting code of what it
/// completed resumes on the thread pool. With <see cref="InlineContinuations"/> on, the awaiting code of the last
/// operation it completes resumes on that same thread instead, as the code after a blocking receive does on the thread
/// the frame woke, but only while another reactor thread is free to go on waiting (<see cref="_freeThreads"/>), so
/// code that blocks after an await can hold up its own thread and never the reactor.
/// </remarks>
internal abstract class SocketReactor
{
    /// <summary>The name of the reactor's threads, as debuggers and /proc/&lt;pid&gt;/task show it.</summary>
    internal const string ThreadName = "Net.Zmq reactor";

    /// <summary>The AppContext switch that turns <see cref="InlineContinuations"/> on for the process.</summary>
    internal const string InlineContinuationsSwitch = "Net.Zmq.Async.InlineContinuations";

    /// <summary>Descriptors reported by one wait at most; more stay ready for the next wait.</summary>
    protected const int MaxReadyPerWait = 64;

    private static readonly object s_creation = new();
    private static SocketReactor? s_instance;

    private readonly object _slotsGate = new();
    private readonly Stack<int> _freeSlots = new();
    private SocketAsyncDriver?[] _slots = new SocketAsyncDriver?[64];
    private int _nextSlot;

    // Reactor threads not running a continuation: one of them must always be left to wait.
    private int _freeThreads;

    /// <summary>
    /// Whether the awaiting code of the last operation a reactor thread completes in a pass may resume on that thread,
    /// while another reactor thread is left to wait, instead of on the thread pool. Off by default, as for .NET's own
    /// sockets; the AppContext switch <see cref="InlineContinuationsSwitch"/> turns it on. Which is faster depends on
    /// the machine (docs/async.md).
    /// </summary>
    internal static bool InlineContinuations { get; set; } =
        AppContext.TryGetSwitch(InlineContinuationsSwitch, out bool enabled) && enabled;

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
        reactor._freeThreads = reactor.WaitingThreads;
        for (int i = 0; i < reactor.WaitingThreads; i++)
        {
            new Thread(reactor.Run) { IsBackground = true, Name = ThreadName }.Start();
        }

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

    /// <summary>How many threads wait at once: more than one only where the kernel wakes one waiter per signal.</summary>
    protected abstract int WaitingThreads { get; }

    /// <summary>
    /// Waits until at least one watched descriptor signals and writes the slots of those that did to
    /// <paramref name="ready"/>; returns how many (0 when the wait ended for another reason). <paramref name="stalled"/>
    /// says that this thread's previous pumps were all left to the gates' holders.
    /// </summary>
    protected abstract int Wait(Span<ulong> ready, bool stalled);

    /// <summary>A reactor thread: wait, pump what signalled, again.</summary>
    private void Run()
    {
        Span<ulong> ready = stackalloc ulong[MaxReadyPerWait];
        bool stalled = false;
        while (true)
        {
            int count = Wait(ready, stalled);
            bool progressed = count == 0;
            for (int i = 0; i < count; i++)
            {
                progressed |= i == count - 1 ? DispatchLast(ready[i]) : Dispatch(ready[i], runContinuationInline: false);
            }

            stalled = !progressed;
        }
    }

    /// <summary>Dispatches the last socket of a wait, running one continuation here if another thread is left to wait.</summary>
    private bool DispatchLast(ulong slot)
    {
        if (!InlineContinuations)
        {
            return Dispatch(slot, runContinuationInline: false);
        }

        if (Interlocked.Decrement(ref _freeThreads) < 1)
        {
            Interlocked.Increment(ref _freeThreads);
            return Dispatch(slot, runContinuationInline: false);
        }

        try
        {
            return Dispatch(slot, runContinuationInline: true);
        }
#pragma warning disable CA1031 // See below: nothing a continuation throws may end the reactor thread.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            // Only a continuation run here can throw (an async method's never does: a raw OnCompleted callback's can).
            // The pump had finished; the reactor thread must go on serving every other socket of the process.
            Trace.TraceError($"Net.Zmq reactor: a continuation of an awaited Net.Zmq operation threw on the reactor thread; the reactor goes on. {ex}");
            return true;
        }
        finally
        {
            Interlocked.Increment(ref _freeThreads);
        }
    }

    /// <summary>Pumps the socket in <paramref name="slot"/>; false when its gate was held, so the pump was left to the holder.</summary>
    private bool Dispatch(ulong slot, bool runContinuationInline)
    {
        SocketAsyncDriver?[] slots = Volatile.Read(ref _slots);
        return slot >= (ulong)slots.Length || Volatile.Read(ref slots[slot]) is not { } driver || driver.Pump(runContinuationInline);
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
