using System.Diagnostics;
using System.Runtime.InteropServices;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// Waits for readiness on many sockets and file descriptors at once (<c>zmq_poll</c>). Each <c>Add</c> returns an
/// index that stays valid until that entry is removed; after <see cref="Poll(int)"/>, ask
/// <see cref="IsReadable"/>, <see cref="IsWritable"/> or <see cref="HasError"/> by index. Polling allocates nothing.
/// Use a poller from one thread at a time: a call while another thread is inside one (a <c>Poll</c> that waits, most
/// often) throws <see cref="InvalidOperationException"/>. <see cref="Dispose"/> may come from any thread.
/// </summary>
/// <remarks>
/// <para>A <see cref="Poll(int)"/> is a call on every socket the poller holds, as a <c>Recv</c> is, and once polled a socket
/// belongs to the polling thread until it is removed: another thread's call on it throws
/// <see cref="InvalidOperationException"/>, and a Poll that finds another thread inside a call on one of them throws it
/// too. Use a polled socket from the polling thread (receive on it after Poll returns), or remove it first.</para>
/// <para>A <see cref="Dispose"/> during another thread's Poll does not wait for it: the Poll goes on until an event or
/// its timeout (libzmq cannot be woken), then frees the poller and throws <see cref="ObjectDisposedException"/>. To
/// stop a polling thread promptly, poll with a timeout, or add a socket that another thread can send a stop to.</para>
/// </remarks>
public sealed unsafe class Poller : IDisposable
{
    private const int Idle = 0;
    private const int Closed = -1;

    // Who is inside a call on this poller: Idle, the calling thread's id, or Closed once its memory is freed (by Dispose
    // when it found the poller Idle, else by the call in flight as it ends). The fields below are touched only by the
    // thread whose id this holds, or by the finalizer when nobody can call; the answers of IsReadable and the others
    // come from _returned, managed memory, so they stay safe to read whatever another thread does.
    private int _owner;

    // Set once by Dispose, before it tries to take _owner; read by a call's end after it gave _owner back (both with a
    // full fence: either Dispose takes the poller, or that end sees the flag and frees it).
    private int _disposeRequested;

    private byte* _items;
    private Socket?[] _sockets;
    private bool[] _inUse;

    // Which sockets the Poll under way took the claim of (see SocketGate), to give back when it returns.
    private bool[] _claimed;

    // The events each entry had at the last Poll, copied out of _items when it returned.
    private short[] _returned;
    private int _capacity;
    private int _count;
    private int _used;

    /// <summary>Creates a poller with room for <paramref name="capacity"/> entries; it grows when more are added.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative.</exception>
    public Poller(int capacity = 16)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        NativeLibraryLoader.EnsureLoaded();
        _capacity = Math.Max(capacity, 1);
        _items = (byte*)NativeMemory.AllocZeroed((nuint)(_capacity * ZmqPollItems.Size));
        _sockets = new Socket?[_capacity];
        _inUse = new bool[_capacity];
        _claimed = new bool[_capacity];
        _returned = new short[_capacity];
    }

    /// <summary>Releases native memory if <see cref="Dispose"/> was not called.</summary>
    ~Poller() => Release();

    /// <summary>The number of registered entries.</summary>
    public int Count => _used;

    /// <summary>Registers <paramref name="socket"/> for <paramref name="events"/>; returns its index.</summary>
    /// <remarks>
    /// <para>
    /// A socket used with the asynchronous methods (<c>SendAsync</c>, <c>RecvAsync</c> and the others) is driven by
    /// Net.Zmq's reactor and cannot be polled: <c>Add</c> refuses it with <see cref="InvalidOperationException"/>.
    /// Poll sockets you use synchronously only, or keep using the async API (<c>Task.WhenAny</c> over several
    /// receives, or one receive loop per socket).
    /// </para>
    /// <para>
    /// While the poller holds a socket, the socket's asynchronous methods throw <see cref="InvalidOperationException"/>.
    /// Once the entry is removed (<see cref="Remove"/>) or the poller disposed (and the Poll under way, if any, has
    /// returned), the socket may be used asynchronously,
    /// and from then on it cannot be added to a poller again.
    /// </para>
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the poller was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been used with the asynchronous methods, or another thread is inside a call on this poller.</exception>
    public int Add(Socket socket, PollEvents events)
    {
        ArgumentNullException.ThrowIfNull(socket);
        Enter();
        try
        {
            nint native = socket.Gate.Hold("a Poller"); // held until Remove or Dispose, so the handle never dangles
            int index = NextFreeIndex();
            _sockets[index] = socket;
            WriteItem(index, native, fd: -1, events);
            return index;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Registers an OS file descriptor (a SOCKET handle on Windows) for <paramref name="events"/>; returns its index.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="fileDescriptor"/> is negative.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on this poller.</exception>
    public int Add(nint fileDescriptor, PollEvents events)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fileDescriptor);
        Enter();
        try
        {
            int index = NextFreeIndex();
            WriteItem(index, 0, fileDescriptor, events);
            return index;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Registers a <see cref="System.Net.Sockets.Socket"/> by its OS handle; returns its index.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    public int Add(System.Net.Sockets.Socket socket, PollEvents events)
    {
        ArgumentNullException.ThrowIfNull(socket);
        return Add(socket.Handle, events);
    }

    /// <summary>Changes the events watched for the entry at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">No entry has that index.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on this poller.</exception>
    public void Update(int index, PollEvents events)
    {
        Enter();
        try
        {
            ExpectEntry(index);
            EventsOf(index) = (short)events;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Removes the entry at <paramref name="index"/>; the index may be reused by a later <c>Add</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">No entry has that index.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on this poller.</exception>
    public void Remove(int index)
    {
        Enter();
        try
        {
            ExpectEntry(index);
            ReleaseEntry(index);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Removes every entry, giving back the sockets it held (as <see cref="Remove"/> does for one), and keeps the
    /// poller's memory for the entries added next. Indexes start again from 0.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The poller was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on this poller.</exception>
    public void Clear()
    {
        Enter();
        try
        {
            for (int i = 0; i < _count; i++)
            {
                if (_inUse[i])
                {
                    ReleaseEntry(i);
                }
            }

            _count = 0;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Waits up to <paramref name="timeoutMilliseconds"/> (−1 = forever, 0 = just check) for any watched event.
    /// </summary>
    /// <returns>The number of entries with events (0 on timeout).</returns>
    /// <exception cref="ObjectDisposedException">The poller was disposed (during this Poll, too), or a registered socket was disposed without being removed first.</exception>
    /// <exception cref="ContextTerminatedException">A registered socket's context was shut down.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on this poller or on a registered socket: a polled socket belongs to the polling thread. Or the poller has no entries and <paramref name="timeoutMilliseconds"/> is −1: that poll would never return.</exception>
    public int Poll(int timeoutMilliseconds)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(timeoutMilliseconds, -1);
        Enter();
        try
        {
            int ready = _used == 0 ? PollNothing(timeoutMilliseconds) : PollEntries(timeoutMilliseconds);
            if (Volatile.Read(ref _disposeRequested) != 0)
            {
                ThrowHelper.ThrowObjectDisposed(this); // by another thread during this Poll: its answers are gone
            }

            return ready;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>The poll itself, under this poller's claim.</summary>
    private int PollEntries(int timeoutMilliseconds)
    {
        for (int i = 0; i < _count; i++)
        {
            Socket? socket = _sockets[i];
            if (socket is not null && socket.IsDisposed)
            {
                throw new ObjectDisposedException(typeof(Socket).FullName,
                    $"The {socket.Type} socket at poller index {i} was disposed while registered; Remove it from the Poller first.");
            }

            ReturnedEventsOf(i) = 0;
            _returned[i] = 0;
        }

        // zmq_poll calls into every socket it polls, so it is a call on each, made under each one's claim: a call from
        // another thread meanwhile is refused, and a Poll that finds another thread inside a call throws.
        int looked = 0;
        try
        {
            for (; looked < _count; looked++)
            {
                _claimed[looked] = _sockets[looked] is { } socket && socket.Gate.BeginHeldCall();
            }

            int ready = ZmqPoll.Wait(_items, _count, timeoutMilliseconds, out int errorNumber);
            if (ready < 0)
            {
                ThrowHelper.ThrowZmq(errorNumber, "Polling");
            }

            for (int i = 0; i < _count; i++)
            {
                _returned[i] = ReturnedEventsOf(i);
            }

            return ready;
        }
        finally
        {
            for (int i = 0; i < looked; i++)
            {
                if (_claimed[i])
                {
                    _claimed[i] = false;
                    _sockets[i]!.Gate.EndCall();
                }
            }
        }
    }

    /// <summary>
    /// A poll without entries, which nothing can make ready: sleeps out the timeout here. <c>zmq_poll</c> of no items
    /// sleeps in microseconds that wrap (forever became about 71 minutes, then 0), and of removed entries only would
    /// block forever.
    /// </summary>
    private static int PollNothing(int timeoutMilliseconds)
    {
        if (timeoutMilliseconds == Timeout.Infinite)
        {
            throw new InvalidOperationException(
                "This Poller has no entries, so a Poll without a timeout would never return: Add a socket first, or give a timeout.");
        }

        Thread.Sleep(timeoutMilliseconds);
        return 0;
    }

    /// <summary>Waits up to <paramref name="timeout"/> (<see cref="Timeout.InfiniteTimeSpan"/> = forever); see <see cref="Poll(int)"/>.</summary>
    public int Poll(TimeSpan timeout) => Poll(OptionValues.ToMilliseconds(timeout, nameof(timeout)));

    /// <summary>Whether the entry at <paramref name="index"/> was readable at the last <see cref="Poll(int)"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">No entry has that index.</exception>
    /// <exception cref="ObjectDisposedException">The poller was disposed.</exception>
    public bool IsReadable(int index) => (ReturnedEvents(index) & PollEvents.In) != 0;

    /// <summary>Whether the entry at <paramref name="index"/> was writable at the last <see cref="Poll(int)"/>.</summary>
    public bool IsWritable(int index) => (ReturnedEvents(index) & PollEvents.Out) != 0;

    /// <summary>Whether the file descriptor at <paramref name="index"/> reported an error at the last <see cref="Poll(int)"/>.</summary>
    public bool HasError(int index) => (ReturnedEvents(index) & PollEvents.Error) != 0;

    /// <summary>
    /// Removes every entry and frees the poller's memory; from any thread. During another thread's call (a Poll), that
    /// call does it as it returns. Calling it again does nothing.
    /// </summary>
    public void Dispose()
    {
        Interlocked.Exchange(ref _disposeRequested, 1);
        if (Interlocked.CompareExchange(ref _owner, Closed, Idle) == Idle)
        {
            Release();
        }

        GC.SuppressFinalize(this);
    }

    /// <summary>Takes this poller for the calling thread's call (see <c>_owner</c>).</summary>
    /// <exception cref="ObjectDisposedException">The poller was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on it.</exception>
    private void Enter()
    {
        int thread = CallingThread.Id;
        int owner = Interlocked.CompareExchange(ref _owner, thread, Idle);
        if (owner == Idle && Volatile.Read(ref _disposeRequested) == 0)
        {
            return;
        }

        if (owner == Idle)
        {
            Exit(); // disposed meanwhile: frees the poller if Dispose left that to this claim
        }

        if (owner == Idle || owner == Closed || Volatile.Read(ref _disposeRequested) != 0)
        {
            ThrowHelper.ThrowObjectDisposed(this); // (disposed during another thread's Poll: that Poll frees it)
        }

        throw new InvalidOperationException(
            $"This Poller is in use by thread {owner} while thread {thread} called it: a poller is used from one thread " +
            "at a time (Dispose excepted). Add, Update and Remove entries on the polling thread between polls, or hand " +
            "the poller over through a lock or a queue.");
    }

    /// <summary>Ends the calling thread's call; frees the poller if a Dispose came meanwhile.</summary>
    private void Exit()
    {
        Debug.Assert(Volatile.Read(ref _owner) == CallingThread.Id, "only the thread inside a call ends it");
        Interlocked.Exchange(ref _owner, Idle);
        if (Volatile.Read(ref _disposeRequested) != 0 && Interlocked.CompareExchange(ref _owner, Closed, Idle) == Idle)
        {
            Release();
        }
    }

    private PollEvents ReturnedEvents(int index)
    {
        ExpectEntry(index);
        return (PollEvents)_returned[index];
    }

    private int NextFreeIndex()
    {
        for (int i = 0; i < _count; i++)
        {
            if (!_inUse[i])
            {
                _inUse[i] = true;
                _used++;
                return i;
            }
        }

        if (_count == _capacity)
        {
            int capacity = _capacity * 2;
            _items = (byte*)NativeMemory.Realloc(_items, (nuint)(capacity * ZmqPollItems.Size));
            Array.Resize(ref _sockets, capacity);
            Array.Resize(ref _inUse, capacity);
            Array.Resize(ref _claimed, capacity);
            Array.Resize(ref _returned, capacity);
            _capacity = capacity;
        }

        _inUse[_count] = true;
        _used++;
        return _count++;
    }

    private byte* ItemAt(int index) => _items + (index * ZmqPollItems.Size);

    private void WriteItem(int index, nint socket, nint fd, PollEvents events) => ZmqPollItems.Write(ItemAt(index), socket, fd, events);

    private ref short EventsOf(int index) => ref ZmqPollItems.Events(ItemAt(index));

    private ref short ReturnedEventsOf(int index) => ref ZmqPollItems.ReturnedEvents(ItemAt(index));

    private void ReleaseEntry(int index)
    {
        Socket? socket = _sockets[index];
        _sockets[index] = null;
        _inUse[index] = false;
        _used--;
        _returned[index] = 0;
        WriteItem(index, 0, fd: -1, PollEvents.None);
        socket?.Gate.ReleaseHold();
    }

    private void ExpectEntry(int index)
    {
        ThrowIfDisposed();
        if ((uint)index >= (uint)_count || !_inUse[index])
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(index), index, "No poller entry has this index.");
        }
    }

    private void ThrowIfDisposed()
    {
        if (Volatile.Read(ref _disposeRequested) != 0)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }
    }

    private void Release()
    {
        if (_items is null)
        {
            return;
        }

        for (int i = 0; i < _count; i++)
        {
            _sockets[i]?.Gate.ReleaseHold();
            _sockets[i] = null;
        }

        NativeMemory.Free(_items);
        _items = null;
        _count = _used = 0;
    }
}
