using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// One thread that serves sockets, timers and queues (NetMQ's <c>NetMQPoller</c>, pyzmq's <c>IOLoop</c>): register a
/// socket with a handler that runs when it is ready to receive (<see cref="Add(Socket, Action{Socket})"/>), timers
/// (<see cref="AddTimer(TimeSpan, Action{EventLoopTimer})"/>, <see cref="AddOneShotTimer"/>) and queues other threads feed
/// (<see cref="AddQueue{T}(Action{T})"/>), then <see cref="Run"/> or <see cref="RunAsync"/> until <see cref="Stop"/>. Every handler
/// runs on the loop thread, one at a time, so handlers share state without locks. Nothing is allocated per event once
/// the loop runs.
/// </summary>
/// <remarks>
/// <para>
/// Every member may be called from any thread, and from inside a handler. While the loop runs, its
/// <see cref="SynchronizationContext"/> is installed on the loop thread: the code after an <c>await</c> in a handler
/// resumes on the loop thread. <see cref="Post(Action)"/> and <see cref="TaskScheduler"/> run work there from outside.
/// </para>
/// <para>
/// A socket in a loop is driven by <c>zmq_poll</c> like a <see cref="Poller"/>'s: while registered it must be used only by
/// the loop's handlers, and its asynchronous methods (<c>SendAsync</c>, <c>RecvAsync</c>, ...) throw
/// <see cref="InvalidOperationException"/>; a socket already used asynchronously cannot be added. An exception thrown by
/// a handler stops the loop: <see cref="Run"/> rethrows it, and the task of <see cref="RunAsync"/> fails with it.
/// See docs/event-loop.md.
/// </para>
/// </remarks>
public sealed unsafe partial class EventLoop : IDisposable
{
    /// <summary>How many queue items or posted callbacks one pass of the loop handles per queue before it polls again.</summary>
    private const int Budget = 256;

    private static readonly SendOrPostCallback s_runAction = static action => ((Action)action!)();

    private readonly LoopWaker _waker;
    private readonly EventLoopSynchronizationContext _synchronizationContext;
    private readonly EventLoopTaskScheduler _taskScheduler;
    private readonly ManualResetEventSlim _idle = new(initialState: true);
    private readonly ConcurrentQueue<PostedWork> _posted = new();

    // Sockets removed by another thread while the loop runs; the loop gives back their hold between two polls.
    private readonly ConcurrentQueue<Entry> _releases = new();

    // Guarded by Gate.
    private readonly List<Entry> _sockets = [];
    private readonly List<IEventLoopQueue> _queues = [];
    private int _socketsVersion;
    private int _queuesVersion;
    private bool _running;
    private bool _disposeWhenStopped;

    // The loop thread's own: what it polls (item 0 is the waker, item i + 1 is _polled[i]) and which queues it drains.
    private Entry[] _polled = [];
    private int _polledCount;
    private byte[] _items = [];
    private bool[] _claimed = [];
    private int _builtSocketsVersion = -1;
    private IEventLoopQueue[] _drained = [];
    private int _drainedCount;
    private int _builtQueuesVersion = -1;
    private bool _moreWork;

    private volatile int _loopThreadId;
    private volatile bool _stopRequested;
    private volatile bool _disposed;
    private int _wakePending;

    /// <summary>Creates a loop; nothing runs until <see cref="Run"/> or <see cref="RunAsync"/>.</summary>
    /// <exception cref="IOException">The operating system refused the descriptor that wakes the loop.</exception>
    public EventLoop()
    {
        NativeLibraryLoader.EnsureLoaded();
        _waker = LoopWaker.Create();
        _synchronizationContext = new EventLoopSynchronizationContext(this);
        _taskScheduler = new EventLoopTaskScheduler(this);
    }

    /// <summary>Whether the loop is running (from <see cref="Run"/> or <see cref="RunAsync"/> until it returns).</summary>
    public bool IsRunning
    {
        get
        {
            lock (Gate)
            {
                return _running;
            }
        }
    }

    /// <summary>Whether the calling thread is the one running the loop.</summary>
    public bool IsOnLoopThread => _loopThreadId == Environment.CurrentManagedThreadId;

    /// <summary>Whether <see cref="Dispose"/> was called.</summary>
    public bool IsDisposed => _disposed;

    /// <summary>
    /// The context installed on the loop thread while it runs: work posted to it runs on the loop thread, so
    /// <c>await</c> in a handler resumes there. Posting before the loop runs queues the work for when it does.
    /// </summary>
    public SynchronizationContext SynchronizationContext => _synchronizationContext;

    /// <summary>A scheduler that runs tasks on the loop thread, one at a time (<c>Task.Factory.StartNew(work, ..., loop.TaskScheduler)</c>).</summary>
    public TaskScheduler TaskScheduler => _taskScheduler;

    /// <summary>The number of sockets registered: ZeroMQ sockets, and the .NET sockets, beacons and descriptors the loop watches.</summary>
    public int SocketCount
    {
        get
        {
            lock (Gate)
            {
                return _sockets.Count;
            }
        }
    }

    /// <summary>
    /// Whether the loop refuses changes: disposed, and the caller is not a handler finishing its work on the loop thread
    /// (a Dispose from another thread lets the handler under way complete; what it adds is let go when the loop ends).
    /// </summary>
    internal bool IsClosed => _disposed && !IsOnLoopThread;

    /// <summary>Whether a Stop (or a Dispose) asked the running loop to end: a queue's drain stops handling items then.</summary>
    internal bool IsStopRequested => _stopRequested;

    /// <summary>The lock that guards the registrations and the timers.</summary>
    internal object Gate { get; } = new();

    /// <summary>The enabled timers; guarded by <see cref="Gate"/>.</summary>
    internal TimerHeap Timers { get; } = new();

    /// <summary>Registers <paramref name="socket"/>: <paramref name="receiveReady"/> runs on the loop thread whenever a message waits on it.</summary>
    /// <remarks>
    /// The handler should receive what is waiting (with <c>TryRecv</c> or <see cref="RecvFlags.DontWait"/> to take several);
    /// as with <c>zmq_poll</c>, a socket that stays readable calls it again on the next pass.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="receiveReady"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The socket is already in this loop, or has been used with the asynchronous methods.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the loop was disposed.</exception>
    public void Add(Socket socket, Action<Socket> receiveReady)
    {
        ArgumentNullException.ThrowIfNull(receiveReady);
        Add(socket, receiveReady, sendReady: null);
    }

    /// <summary>
    /// Registers <paramref name="socket"/> with a handler for when a message waits on it (<paramref name="receiveReady"/>)
    /// and one for when a message can be sent without blocking (<paramref name="sendReady"/>); either may be null.
    /// </summary>
    /// <remarks>
    /// <para>Most sockets can send almost always: give <paramref name="sendReady"/> only while there is something to send
    /// (<see cref="Update"/> sets and clears it), or the loop calls it on every pass.</para>
    /// <para>Once the loop polls it, the socket belongs to the loop's thread until it leaves the loop: call it from the
    /// handlers (or post the work with <see cref="Post(Action)"/>); a call from another thread throws
    /// <see cref="InvalidOperationException"/>. A socket another thread is inside a call on is left out of the loop's
    /// polls until that call returns.</para>
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="ArgumentException">Both handlers are null.</exception>
    /// <exception cref="InvalidOperationException">The socket is already in this loop, or has been used with the asynchronous methods.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the loop was disposed.</exception>
    public void Add(Socket socket, Action<Socket>? receiveReady, Action<Socket>? sendReady)
    {
        ArgumentNullException.ThrowIfNull(socket);
        if (receiveReady is null && sendReady is null)
        {
            ThrowHelper.ThrowArgument("Give a handler for receiving, for sending, or both.", nameof(receiveReady));
        }

        lock (Gate)
        {
            ThrowIfDisposed();
            if (IndexOf(socket) >= 0)
            {
                ThrowHelper.ThrowInvalidOperation($"This {socket.Type} socket is already in this event loop; use Update to change its handlers.");
            }

            nint native = socket.Gate.Hold("an EventLoop"); // given back when it leaves the loop
            _sockets.Add(new SocketEntry(socket, native, receiveReady, sendReady));
            _socketsVersion++;
        }

        WakeIfElsewhere();
    }

    /// <summary>Replaces the handlers of a registered socket; with both null the socket stays registered but is not watched.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The socket is not in this loop.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public void Update(Socket socket, Action<Socket>? receiveReady, Action<Socket>? sendReady)
    {
        ArgumentNullException.ThrowIfNull(socket);
        lock (Gate)
        {
            ThrowIfDisposed();
            int index = IndexOf(socket);
            if (index < 0)
            {
                ThrowHelper.ThrowInvalidOperation($"This {socket.Type} socket is not in this event loop.");
            }

            var entry = (SocketEntry)_sockets[index];
            entry.ReceiveReady = receiveReady;
            entry.SendReady = sendReady;
            _socketsVersion++;
        }

        WakeIfElsewhere();
    }

    /// <summary>
    /// Takes <paramref name="socket"/> out of the loop; its handlers are not called again, and once this returns the
    /// socket is yours to use or dispose. Called from another thread while the loop runs, it waits until the loop has let
    /// go of the socket (the handler under way, if any, has returned).
    /// </summary>
    /// <returns>False when the socket was not in the loop.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    public bool Remove(Socket socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        return RemoveKey(socket);
    }

    /// <summary>Whether <paramref name="socket"/> is in the loop.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    public bool Contains(Socket socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        lock (Gate)
        {
            return IndexOf(socket) >= 0;
        }
    }

    /// <summary>Takes the entry of <paramref name="key"/> out of the loop, waiting for the loop to let go of it when it runs elsewhere.</summary>
    private bool RemoveKey(object key)
    {
        Entry entry;
        lock (Gate)
        {
            int index = IndexOf(key);
            if (index < 0)
            {
                return false;
            }

            entry = _sockets[index];
            RemoveEntryLocked(index);
            if (!_running || IsOnLoopThread)
            {
                entry.Release();
                return true;
            }

            entry.Released = new ManualResetEventSlim();
            _releases.Enqueue(entry);
        }

        Wake();
        entry.Released.Wait();
        entry.Released.Dispose();
        return true;
    }

    /// <summary>
    /// Starts a periodic timer: <paramref name="elapsed"/> runs on the loop thread every <paramref name="interval"/>, the
    /// first time one interval from now, until the timer is disabled or disposed.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="elapsed"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="interval"/> is not positive or exceeds <see cref="int.MaxValue"/> milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public EventLoopTimer AddTimer(TimeSpan interval, Action<EventLoopTimer> elapsed) => AddTimer(interval, periodic: true, elapsed);

    /// <summary>
    /// Starts a one-shot timer: <paramref name="elapsed"/> runs once on the loop thread, <paramref name="delay"/> from now.
    /// The timer is then disabled; <see cref="EventLoopTimer.Restart"/> arms it again.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="elapsed"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="delay"/> is not positive or exceeds <see cref="int.MaxValue"/> milliseconds.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public EventLoopTimer AddOneShotTimer(TimeSpan delay, Action<EventLoopTimer> elapsed) => AddTimer(delay, periodic: false, elapsed);

    /// <summary>
    /// Creates a queue whose items, enqueued from any thread, are handed to <paramref name="handler"/> on the loop thread,
    /// in order.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="handler"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public EventLoopQueue<T> AddQueue<T>(Action<T> handler) => AddQueueCore(handler, capacity: null);

    /// <summary>
    /// Creates a queue, as <see cref="AddQueue{T}(Action{T})"/> does, that holds at most <paramref name="capacity"/>
    /// items waiting: when it is full, <see cref="EventLoopQueue{T}.TryEnqueue"/> returns false and
    /// <see cref="EventLoopQueue{T}.EnqueueAsync"/> waits for room, so producers faster than the loop are held back.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="handler"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is not positive.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public EventLoopQueue<T> AddQueue<T>(Action<T> handler, int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(capacity);
        return AddQueueCore(handler, capacity);
    }

    private EventLoopQueue<T> AddQueueCore<T>(Action<T> handler, int? capacity)
    {
        ArgumentNullException.ThrowIfNull(handler);
        var queue = new EventLoopQueue<T>(this, handler, capacity);
        lock (Gate)
        {
            ThrowIfDisposed();
            _queues.Add(queue);
            _queuesVersion++;
        }

        return queue;
    }

    /// <summary>
    /// Runs <paramref name="action"/> on the loop thread, after what is already queued; safe from any thread. Posted
    /// before the loop runs, it runs when the loop does. An exception it throws stops the loop, as a handler's does.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="action"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public void Post(Action action)
    {
        ArgumentNullException.ThrowIfNull(action);
        Post(s_runAction, action);
    }

    /// <summary>
    /// Runs the loop on the calling thread until <see cref="Stop"/> (or <see cref="Dispose"/>) is called, from a handler or
    /// any other thread. The loop can be run again after it returns.
    /// </summary>
    /// <exception cref="InvalidOperationException">The loop is already running.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context of a registered socket was shut down.</exception>
    /// <remarks>Any exception a handler throws stops the loop and is rethrown here, its stack trace kept.</remarks>
    public void Run()
    {
        EnterRun();
        RunCore();
    }

    /// <summary>
    /// Runs the loop on a new background thread named "Net.Zmq event loop"; the task completes when the loop stops, and
    /// fails with the exception that stopped it, if any.
    /// </summary>
    /// <exception cref="InvalidOperationException">The loop is already running.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public Task RunAsync()
    {
        EnterRun();
        var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() =>
        {
            try
            {
                RunCore();
                stopped.SetResult();
            }
            catch (Exception ex)
            {
                stopped.SetException(ex);
            }
        })
        {
            IsBackground = true,
            Name = "Net.Zmq event loop",
        };
        thread.Start();
        return stopped.Task;
    }

    /// <summary>
    /// Asks the loop to stop; safe from any thread and from a handler, and calling it again (or when the loop is not
    /// running) does nothing. Inside a handler, no other handler runs after the current one returns. Returns at once:
    /// wait for <see cref="Run"/> to return or the task of <see cref="RunAsync"/> to complete.
    /// </summary>
    public void Stop()
    {
        lock (Gate)
        {
            if (!_running || _stopRequested)
            {
                return;
            }

            _stopRequested = true;
        }

        Wake();
    }

    /// <summary>
    /// Stops the loop, waits for it to return (unless called on the loop thread, where it stops when the current handler
    /// returns), gives the sockets back, disposes the timers and queues, and drops the work still posted. Calling it again
    /// does nothing.
    /// </summary>
    public void Dispose()
    {
        bool wasRunning;
        lock (Gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            wasRunning = _running;
            if (wasRunning)
            {
                _stopRequested = true;
                _disposeWhenStopped = true;
            }
            else
            {
                ReleaseAllLocked();
            }
        }

        if (wasRunning)
        {
            Wake();
            if (!IsOnLoopThread)
            {
                _idle.Wait();
            }
        }
    }

    /// <inheritdoc />
    public override string ToString() => $"EventLoop ({SocketCount} sockets{(IsRunning ? ", running" : "")})";

    /// <summary>Wakes the loop from its wait; at most one signal per pass of the loop, from any thread.</summary>
    internal void Wake()
    {
        if (Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            _waker.Signal();
        }
    }

    /// <summary>Wakes the loop unless this is its own thread, which looks at the change before it waits again.</summary>
    internal void WakeIfElsewhere()
    {
        if (!IsOnLoopThread)
        {
            Wake();
        }
    }

    /// <summary>Queues a callback for the loop thread.</summary>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    internal void Post(SendOrPostCallback callback, object? state)
    {
        if (!TryPost(callback, state))
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }
    }

    /// <summary>
    /// Queues a callback for the loop thread; false, with nothing queued, once the loop is disposed. Work queued as a
    /// Dispose comes is either run by the loop or dropped, never left queued: the Dispose drops it, or this sees the
    /// loop closed after the enqueue and drops it itself; <paramref name="state"/>, if it is an
    /// <see cref="IDroppableWork"/>, hears that it was dropped.
    /// </summary>
    internal bool TryPost(SendOrPostCallback callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        if (IsClosed)
        {
            return false;
        }

        _posted.Enqueue(new PostedWork(callback, state));
        Interlocked.MemoryBarrier(); // pairs with DropPostedWork's: either it dequeues this, or this sees the loop closed
        if (IsClosed)
        {
            DropPostedWork(); // (the loop thread may have taken this one already, and runs it)
        }
        else
        {
            Wake();
        }

        return true;
    }

    /// <summary>Work posted to the loop that is told when the loop is disposed before running it.</summary>
    internal interface IDroppableWork
    {
        /// <summary>The loop was disposed: the work will never run.</summary>
        void Dropped();
    }

    /// <summary>Empties the posted work of a disposed loop, telling each <see cref="IDroppableWork"/>; from any thread.</summary>
    private void DropPostedWork()
    {
        Interlocked.MemoryBarrier(); // after the disposed flag was set: see TryPost
        while (_posted.TryDequeue(out PostedWork work))
        {
            (work.State as IDroppableWork)?.Dropped();
        }
    }

    /// <summary>Takes a queue out of the loop (its Dispose).</summary>
    internal void RemoveQueue(IEventLoopQueue queue)
    {
        lock (Gate)
        {
            if (_queues.Remove(queue))
            {
                _queuesVersion++;
            }
        }
    }

    private EventLoopTimer AddTimer(TimeSpan interval, bool periodic, Action<EventLoopTimer> elapsed)
    {
        ArgumentNullException.ThrowIfNull(elapsed);
        EventLoopTimer.ValidateInterval(interval, nameof(interval));
        var timer = new EventLoopTimer(this, interval, periodic, elapsed);
        lock (Gate)
        {
            ThrowIfDisposed();
            timer.StartLocked();
        }

        WakeIfElsewhere();
        return timer;
    }

    private void EnterRun()
    {
        lock (Gate)
        {
            ThrowIfDisposed();
            if (_running)
            {
                ThrowHelper.ThrowInvalidOperation("The event loop is already running; Stop it (and wait for it) before running it again.");
            }

            _running = true;
            _stopRequested = false;
            _idle.Reset();
        }
    }

    private void RunCore()
    {
        _loopThreadId = Environment.CurrentManagedThreadId;
        SynchronizationContext? previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(_synchronizationContext);
        ExceptionDispatchInfo? failure = null;

        // A run first looks at the posted work and the queues: a run that ended early (a handler threw, a Stop) may
        // have left some there after their wake was consumed.
        _moreWork = true;
        try
        {
            Loop();
        }
        catch (Exception ex)
        {
            failure = ExceptionDispatchInfo.Capture(ex);
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
            ExitRun();
        }

        failure?.Throw();
    }

    private void ExitRun()
    {
        lock (Gate)
        {
            ReleaseRemovedSockets();
            _loopThreadId = 0;
            _running = false;
            _stopRequested = false;
            if (_disposeWhenStopped)
            {
                ReleaseAllLocked();
            }
        }

        _idle.Set();
    }

    private void Loop()
    {
        while (!_stopRequested)
        {
            ReleaseRemovedSockets();
            DropDisposedSockets();
            RebuildIfChanged();
            int ready = Poll(_moreWork ? 0 : MillisecondsToNextTimer());
            bool woken = ready > 0 && (ReturnedEvents(0) & (short)PollEvents.In) != 0;
            if (woken)
            {
                _waker.Drain();
                Interlocked.Exchange(ref _wakePending, 0); // a wake from now on signals again
            }

            if (ready > (woken ? 1 : 0))
            {
                DispatchSockets();
            }

            FireDueTimers();
            if (woken || _moreWork)
            {
                _moreWork = false;
                RunPostedWork();
                DrainQueues();
            }
        }
    }

    /// <summary>
    /// Polls the waker and the sockets. zmq_poll calls into every socket it polls, so the poll is a call on each, made
    /// under each one's claim (a call from another thread meanwhile is refused). A socket another thread is inside a
    /// call on, or disposed since the loop last dropped disposed sockets, is left out of this poll, which then looks
    /// again within a millisecond: the loop never fails for it.
    /// </summary>
    private int Poll(int timeoutMilliseconds)
    {
        int looked = 0;
        try
        {
            for (; looked < _polledCount; looked++)
            {
                // Descriptors (a .NET socket, a beacon, a raw handle) belong to no socket gate: nothing to claim.
                if (_polled[looked] is not SocketEntry entry)
                {
                    continue;
                }

                _claimed[looked] = entry.Socket.Gate.TryBeginHeldCall(out int otherThread);
                if (otherThread != 0)
                {
                    WriteItem(looked + 1, 0, -1, PollEvents.None);
                    timeoutMilliseconds = timeoutMilliseconds < 0 ? 1 : Math.Min(timeoutMilliseconds, 1);
                    _builtSocketsVersion = -1; // written back on the next pass
                }
            }

            int ready;
            int errorNumber;
            fixed (byte* items = _items)
            {
                ready = ZmqPoll.Wait(items, _polledCount + 1, timeoutMilliseconds, out errorNumber);
            }

            if (ready < 0)
            {
                ThrowHelper.ThrowZmq(errorNumber, "Polling in an EventLoop");
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
                    ((SocketEntry)_polled[i]).Socket.Gate.EndCall();
                }
            }
        }
    }

    private void DispatchSockets()
    {
        for (int i = 0; i < _polledCount && !_stopRequested; i++)
        {
            short events = ReturnedEvents(i + 1);
            if (events == 0)
            {
                continue;
            }

            _polled[i].Dispatch(this, events);
        }
    }

    private void FireDueTimers()
    {
        long now = Stopwatch.GetTimestamp();
        while (!_stopRequested)
        {
            EventLoopTimer? timer;
            lock (Gate)
            {
                timer = Timers.Peek();
                if (timer is null || timer.Due > now)
                {
                    return;
                }

                timer.TakeTickLocked(now); // a periodic timer is due again after now: it ticks at most once per pass
            }

            timer.Fire();
        }
    }

    private void RunPostedWork()
    {
        for (int n = 0; n < Budget && !_stopRequested; n++)
        {
            if (!_posted.TryDequeue(out PostedWork work))
            {
                return;
            }

            work.Callback(work.State);
        }

        _moreWork |= !_posted.IsEmpty;
    }

    private void DrainQueues()
    {
        if (Volatile.Read(ref _queuesVersion) != _builtQueuesVersion)
        {
            lock (Gate)
            {
                if (_drained.Length < _queues.Count)
                {
                    _drained = new IEventLoopQueue[_queues.Count * 2];
                }

                _queues.CopyTo(_drained);
                Array.Clear(_drained, _queues.Count, _drained.Length - _queues.Count);
                _drainedCount = _queues.Count;
                _builtQueuesVersion = _queuesVersion;
            }
        }

        for (int i = 0; i < _drainedCount && !_stopRequested; i++)
        {
            _moreWork |= _drained[i].Drain(Budget);
        }
    }

    private int MillisecondsToNextTimer()
    {
        long due;
        lock (Gate)
        {
            EventLoopTimer? next = Timers.Peek();
            if (next is null)
            {
                return -1;
            }

            due = next.Due;
        }

        long remaining = due - Stopwatch.GetTimestamp();
        if (remaining <= 0)
        {
            return 0;
        }

        // Rounded up: the wait ends at or after the due time, never before it.
        double milliseconds = Math.Ceiling(remaining * 1000.0 / Stopwatch.Frequency);
        return milliseconds >= int.MaxValue ? int.MaxValue : (int)milliseconds;
    }

    /// <summary>Gives back the sockets other threads removed while the loop ran, and lets those threads return.</summary>
    private void ReleaseRemovedSockets()
    {
        while (_releases.TryDequeue(out Entry? entry))
        {
            entry.Release();
            entry.Released!.Set();
        }
    }

    /// <summary>A socket (or beacon) disposed while registered leaves the loop before the next poll (polling it would fail).</summary>
    private void DropDisposedSockets()
    {
        for (int i = 0; i < _polledCount; i++)
        {
            Entry entry = _polled[i];
            if (!entry.Removed && entry.IsClosed)
            {
                lock (Gate)
                {
                    int index = _sockets.IndexOf(entry);
                    if (index >= 0)
                    {
                        RemoveEntryLocked(index);
                        entry.Release();
                    }
                }
            }
        }
    }

    private void RebuildIfChanged()
    {
        if (Volatile.Read(ref _socketsVersion) == _builtSocketsVersion && _items.Length != 0)
        {
            return;
        }

        lock (Gate)
        {
            int count = _sockets.Count;
            if (_polled.Length < count)
            {
                _polled = new Entry[count * 2];
                _claimed = new bool[_polled.Length];
            }

            if (_items.Length < (count + 1) * ZmqPollItems.Size)
            {
                _items = GC.AllocateArray<byte>((_polled.Length + 1) * ZmqPollItems.Size, pinned: true);
            }

            _sockets.CopyTo(_polled);
            Array.Clear(_polled, count, _polled.Length - count);
            _polledCount = count;
            WriteItem(0, 0, _waker.Descriptor, PollEvents.In);
            for (int i = 0; i < count; i++)
            {
                Entry entry = _polled[i];
                WriteItem(i + 1, entry.Native, entry.Descriptor, entry.Events);
            }

            _builtSocketsVersion = _socketsVersion;
        }
    }

    private void WriteItem(int index, nint socket, nint fd, PollEvents events)
    {
        fixed (byte* items = _items)
        {
            ZmqPollItems.Write(items + (index * ZmqPollItems.Size), socket, fd, events);
        }
    }

    private short ReturnedEvents(int index)
    {
        fixed (byte* items = _items)
        {
            return ZmqPollItems.ReturnedEvents(items + (index * ZmqPollItems.Size));
        }
    }

    private int IndexOf(object key)
    {
        for (int i = 0; i < _sockets.Count; i++)
        {
            if (_sockets[i].Key.Equals(key))
            {
                return i;
            }
        }

        return -1;
    }

    private void RemoveEntryLocked(int index)
    {
        _sockets[index].Removed = true;
        _sockets.RemoveAt(index);
        _socketsVersion++;
    }

    private void ReleaseAllLocked()
    {
        foreach (Entry entry in _sockets)
        {
            entry.Removed = true;
            entry.Release();
        }

        _sockets.Clear();
        _socketsVersion++;
        ReleaseRemovedSockets();
        while (Timers.Peek() is { } timer)
        {
            timer.DisposeLocked();
        }

        foreach (IEventLoopQueue queue in _queues)
        {
            queue.Close();
        }

        _queues.Clear();
        _queuesVersion++;
        DropPostedWork();
        Array.Clear(_polled);
        Array.Clear(_drained);
        _polledCount = _drainedCount = 0;
        _waker.Dispose();
    }

    private void ThrowIfDisposed()
    {
        if (IsClosed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }
    }

    private readonly record struct PostedWork(SendOrPostCallback Callback, object? State);

    /// <summary>What the loop polls: a ZeroMQ socket or an OS descriptor, the handlers to call, and its removal state.</summary>
    private abstract class Entry(object key, nint native, nint descriptor)
    {
        /// <summary>What the entry is found by: the socket, beacon or .NET socket, or the boxed descriptor.</summary>
        internal object Key { get; } = key;

        /// <summary>The libzmq socket polled, or 0 for a descriptor.</summary>
        internal nint Native { get; } = native;

        /// <summary>The descriptor polled, or -1 for a libzmq socket.</summary>
        internal nint Descriptor { get; } = descriptor;

        /// <summary>Set (under the loop's lock) when the entry leaves the loop; its handlers are not called after.</summary>
        internal volatile bool Removed;

        /// <summary>Set by a thread that removed the entry while the loop ran, which waits until the loop released it.</summary>
        internal ManualResetEventSlim? Released;

        internal abstract PollEvents Events { get; }

        /// <summary>Whether what it polls was closed while registered (the loop then drops it).</summary>
        internal abstract bool IsClosed { get; }

        /// <summary>Runs the handlers for <paramref name="events"/>, on the loop thread.</summary>
        internal abstract void Dispatch(EventLoop loop, short events);

        /// <summary>Gives back what the loop holds of it, once.</summary>
        internal virtual void Release()
        {
        }
    }

    /// <summary>A registered socket: its handlers and the hold the loop has on it.</summary>
    private sealed class SocketEntry(Socket socket, nint native, Action<Socket>? receiveReady, Action<Socket>? sendReady)
        : Entry(socket, native, -1)
    {
        private bool _released;

        internal Socket Socket { get; } = socket;

        internal volatile Action<Socket>? ReceiveReady = receiveReady;

        internal volatile Action<Socket>? SendReady = sendReady;

        internal override PollEvents Events =>
            (ReceiveReady is null ? PollEvents.None : PollEvents.In) | (SendReady is null ? PollEvents.None : PollEvents.Out);

        internal override bool IsClosed => Socket.IsDisposed;

        /// <summary>Whether its handlers may run: still registered and not disposed.</summary>
        private bool IsLive => !Removed && !Socket.IsDisposed;

        internal override void Dispatch(EventLoop loop, short events)
        {
            if ((events & (short)PollEvents.In) != 0 && IsLive && ReceiveReady is { } receiveReady)
            {
                receiveReady(Socket);
            }

            if ((events & (short)PollEvents.Out) != 0 && IsLive && !loop._stopRequested && SendReady is { } sendReady)
            {
                sendReady(Socket);
            }
        }

        /// <summary>Gives back the hold taken when the socket was added, once.</summary>
        internal override void Release()
        {
            if (!_released)
            {
                _released = true;
                Socket.Gate.ReleaseHold();
            }
        }
    }
}
