using System.Diagnostics;
using System.Runtime.CompilerServices;
using Net.Zmq.Async;
using Net.Zmq.Interop;

namespace Net.Zmq.Internal;

/// <summary>
/// Every concurrency fact about one <see cref="Socket"/>: who is inside a libzmq call on it, whether a Poller, an
/// EventLoop or a Proxy holds it, whether its async driver runs, and who closes the native socket. Every libzmq call on
/// the socket goes through here; nothing else decides any of it.
/// </summary>
/// <remarks>
/// <para><b>The claim word</b> (<c>_claim</c>) is the protocol. One compare-and-swap takes it; one plain write gives it back.</para>
/// <code>
///   _claim      meaning                                          who may call libzmq on the socket
///   ─────────   ──────────────────────────────────────────────   ─────────────────────────────────────────────────
///   Idle (0)    nobody is inside a call                          nobody (a caller first takes the claim)
///   thread id   that thread is inside a call (and _nested more   that thread only; any other thread's BeginCall
///               calls of its own inside it)                      gets InvalidOperationException (concurrent use)
///   Closed (-1) the native socket is closed (or closing)         nobody; every call gets ObjectDisposedException
///   Stopping    a disposed SocketMonitor's monitoring is         the thread stopping it (a few non-blocking
///   (-2)        stopping (MonitorStopRequested), on the          libzmq calls); any thread's BeginCall waits
///               thread that found the socket idle                it out, never refused as concurrent use
///   HandingOver the async driver is being told that no call      nobody (one interlocked write); any thread's
///   (-3)        from before its start is in flight               BeginCall waits it out, as for Stopping
///               (AwaitingHandOver), by whoever found the
///               socket idle
/// </code>
/// <para>Stopping and HandingOver are nobody's call: a synchronous call on one thread may overlap an asynchronous one
/// started on another (that one runs in the driver's gate, unclaimed), so work done for the async machinery must not
/// take a thread's id and get a concurrent synchronous call refused.</para>
/// <para><b>Modes</b>, orthogonal to the claim and changed only under <c>_lock</c> (this gate's own lock; there is no
/// process-wide one):</para>
/// <code>
///   mode     fields                  what runs libzmq besides claimed calls     invariant
///   ──────   ─────────────────────   ────────────────────────────────────────   ─────────────────────────────────────
///   plain    _holders 0, no driver   nothing                                    the claim alone orders all calls
///   held     _holders > 0            Poller.Poll / EventLoop's poll / a         the holder leases the handle and makes
///                                    running Proxy: each takes the claim for    its libzmq call inside the claim
///                                    its zmq_poll / zmq_proxy (BeginHeldCall)   (TryBeginHeldCall); never with a driver;
///                                                                               once polled, _heldBy names the polling
///                                                                               thread (flag Held): another thread's
///                                                                               call is refused, and the polling thread
///                                                                               waits out such a refused claim (ClaimOrFindOwner)
///   async    _driver set             the reactor's pump and an async call's     every libzmq call runs inside the
///                                    first attempt, inside the driver's gate    driver's gate (claimed calls enter it
///                                    (a Monitor), without the claim             too: EnterSync); never held
/// </code>
/// <para>Draft sockets (<see cref="SocketType.Server"/> and after) are thread-safe in libzmq: they are never claimed
/// (<c>_claim</c> stays Idle until closed); each call leases the handle instead, and they never get a driver.</para>
/// <para><b>Work at the end of a call</b> (<c>_attention</c>): a party that needs the socket idle — <see cref="Dispose"/>
/// (<c>CloseRequested</c>), the driver's start (<c>AwaitingHandOver</c>: a call begun before the driver existed did
/// not enter its gate, so the driver keeps off libzmq until that call ended) and a disposed SocketMonitor on any thread
/// (<c>MonitorStopRequested</c>: the monitoring must stop before the monitor's event socket may close, see
/// <see cref="MonitorLink"/>; the monitor's Dispose throws nothing and waits for no blocked call, at most for the
/// driver's gate over a few non-blocking libzmq calls) — sets its flag, then tries to take the claim itself. If a call
/// is in flight, it issues a process-wide barrier and tries once more: a call's end writes the
/// claim back and then reads <c>_attention</c> without a fence of its own, and after the barrier either that write is
/// visible here, or that read sees the flag. Whoever finds a flag set and the claim Idle takes the claim and does the
/// work (<see cref="RunExitWork"/>). So the flags cost a claimed call one read at its end, and the barrier is paid only
/// when a call was in flight. Any flag (Held too) sends a call's begin to the slow path, <see cref="BeginContendedCall"/>.</para>
/// <para><b>Who closes the native socket</b> (<c>zmq_close</c> through <see cref="SocketHandle"/>), once: the disposer,
/// when it takes the claim as Closed; otherwise the call in flight, at its end; and <c>zmq_close</c> itself waits for
/// the last lease (a Poller entry, an EventLoop entry, a Proxy run, the driver's pump, a draft socket's call), so the last
/// lease holder may be the one that closes it. A disposed socket's word stays Closed, which no holder can take: so a
/// holder does not call libzmq on it (a second holder on another thread could be doing so unclaimed too): an EventLoop
/// leaves it out of its poll and drops it, a Poller or a Proxy throws <see cref="ObjectDisposedException"/>.</para>
/// <para><b>Callers that skip <c>finally</c></b>: the send and receive paths of <c>Socket.Call.cs</c> end their call
/// without one, since between <see cref="BeginCall"/> and the end they run only libzmq calls, which cannot throw, and
/// their one failure method (<c>Socket.RetryOrEndCall</c>) ends the call before it returns false or throws. A frame path
/// whose frames come from a caller's list (which may throw) ends the call in a <c>catch</c> that leaves out what
/// RetryOrEndCall already ended. Anything else uses <c>using SocketCall call = ...</c>.</para>
/// <para><b>Why a plain compare-and-swap, and no per-thread grant.</b> The claim used to be granted to a thread after 16
/// claims in a row, which then entered and left with plain writes (another thread took the grant back with a
/// process-wide barrier). Measured as two builds of the library run alternately, 10 processes each, dynamic PGO on (the
/// .NET default) and off (<c>DOTNET_TieredPGO=0</c>), on a 2-core machine shared with other work:
/// <c>benchmarks/compare-builds.sh 65cf875 5a8b5cd 10</c> (65cf875: the grant; 5a8b5cd: this claim, nothing else changed).
/// Medians, with the lowest and highest process in brackets:</para>
/// <code>
///                                                        PGO on                          PGO off
///                                              grant          claim            grant          claim
///   inproc Send+Recv(span), ns beyond bare      19.6 (5-41)    11.2 (6-20)      24.0 (11-33)   23.5 (11-40)
///   blocking DEALER-ROUTER round trip, p50 µs   28.1 (21-31)   25.1 (19-32)     29.3 (24-83)   28.3 (20-78)
///   64 B ROUTER span loop, 1000 msg/s           282 (126-652)  252 (131-689)    358 (223-906)  305 (203-832)
/// </code>
/// <para>"Beyond bare" is the same process's bare P/Invoke send + receive subtracted round by round (about 200 ns
/// here; no check at all is that floor). The noise is of the same size as the differences: run again against this
/// gate (<c>compare-builds.sh 5a8b5cd 81df451 8</c>), the claim-only build measured 20.1 ns beyond bare (PGO on), the
/// gate with its holds and the per-call Message claim 13.2, and the Message row 2.2 and 0.3. With PGO on the grant won
/// no row beyond that spread (the throughput row varies 5x between processes), so the simple claim stays.</para>
/// </remarks>
internal sealed class SocketGate : IDisposable
{
    private const int Idle = 0;
    private const int Closed = -1;
    private const int Stopping = -2;
    private const int HandingOver = -3;

    // _attention flags.
    private const int CloseRequested = 1;
    private const int AwaitingHandOver = 2;
    private const int Held = 4;
    private const int MonitorStopRequested = 8;

    private readonly SocketHandle _handle;
    private readonly nint _native;
    private readonly SocketType _type;
    private readonly bool _threadSafe;
    private readonly object _lock = new();

    // Idle, the id of the thread inside a call, or Closed (see the table above).
    private int _claim;

    // Calls the claiming thread makes inside its own call; touched only by that thread, under the claim.
    private int _nested;

    // What takes a call off the fast path, set and cleared with Interlocked: CloseRequested, AwaitingHandOver and
    // MonitorStopRequested (work for whoever next finds the claim Idle; the last two are cleared only under the claim)
    // and Held (_heldBy is set).
    private int _attention;

    // The thread that last polled the socket for a holder (see TryBeginHeldCall), or 0; written under the claim, and
    // cleared under _lock when the last hold ends. While set, a call from any other thread is refused.
    private int _heldBy;

    // Poller entries, EventLoop entries and running proxies holding the socket; under _lock.
    private int _holders;

    // The async driver, created once under _lock by the first asynchronous call; never while _holders != 0.
    private SocketAsyncDriver? _driver;

    // Disposes the driver if the socket is collected undisposed (the reactor roots the driver, not the socket).
    private SocketAsyncDriverCollector? _collector;

    internal SocketGate(SocketHandle handle, SocketType type, bool threadSafe)
    {
        _handle = handle;
        _native = handle.DangerousGetHandle();
        _type = type;
        _threadSafe = threadSafe;
    }

    /// <summary>The socket's handle.</summary>
    internal SocketHandle Handle => _handle;

    /// <summary>Whether <see cref="Dispose"/> was called.</summary>
    internal bool IsDisposed => (Volatile.Read(ref _attention) & CloseRequested) != 0;

    /// <summary>The async driver, or null until the first asynchronous call.</summary>
    internal SocketAsyncDriver? Driver => Volatile.Read(ref _driver);

    /// <summary>
    /// Begins a call on the native socket: takes the claim for the calling thread (a lease on a draft socket) and, in
    /// async mode, the driver's gate. End it with <see cref="SocketCall.Dispose"/>.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on it (draft sockets excepted).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal SocketCall BeginCall()
    {
        int thread = CallingThread.Id;
        int owner = _threadSafe ? thread : Interlocked.CompareExchange(ref _claim, thread, Idle);
        if (owner != Idle || Volatile.Read(ref _attention) != 0)
        {
            return BeginContendedCall(thread, owner);
        }

        Debug.Assert(_nested == 0, "a fresh claim has no nested calls");
        Volatile.Read(ref _driver)?.EnterSync();
        return new SocketCall(this, _native);
    }

    /// <summary>Ends a call begun by <see cref="BeginCall"/>; runs the work a Dispose or the driver's start left for it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void EndCall()
    {
        Volatile.Read(ref _driver)?.ExitSync();
        if ((_nested | (_threadSafe ? 1 : 0)) != 0)
        {
            EndNestedOrSharedCall();
            return;
        }

        Debug.Assert(Volatile.Read(ref _claim) == CallingThread.Id, "only the claiming thread ends its call");
        Volatile.Write(ref _claim, Idle);
        if (Volatile.Read(ref _attention) != 0)
        {
            RunExitWork();
        }
    }

    /// <summary>
    /// Begins the libzmq call of a Poller, an EventLoop or a Proxy (<c>zmq_poll</c>, <c>zmq_proxy</c>) on a socket it
    /// holds, on the holder's thread, under the claim. True: end it with <see cref="EndCall"/>. False with
    /// <paramref name="otherThread"/> 0: nothing was taken, and polling is safe all the same (a draft socket is
    /// thread-safe). False with <paramref name="otherThread"/> set: that thread is inside a call, or (<c>-1</c>) the
    /// socket was disposed, so it must not be polled now: a closed claim keeps no other holder of the socket out.
    /// </summary>
    internal bool TryBeginHeldCall(out int otherThread)
    {
        Debug.Assert(Volatile.Read(ref _holders) > 0, "only a holder polls");
        Debug.Assert(Volatile.Read(ref _driver) is null, "a held socket has no driver");
        otherThread = 0;
        if (_threadSafe)
        {
            return false;
        }

        int thread = CallingThread.Id;
        int owner = ClaimOrFindOwner(thread);
        if (owner != Idle && owner != thread)
        {
            otherThread = owner;
            return false;
        }

        if (owner == thread)
        {
            _nested++;
        }

        Debug.Assert(Volatile.Read(ref _claim) == thread, "polled under this thread's claim");
        if (Volatile.Read(ref _heldBy) != thread)
        {
            // This thread polls the socket now (a poller handed to another thread takes it over with it).
            Volatile.Write(ref _heldBy, thread);
            Interlocked.Or(ref _attention, Held);
        }

        return true;
    }

    /// <summary><see cref="TryBeginHeldCall"/> for a holder that refuses to poll a socket another thread is calling.</summary>
    /// <returns>True when a claim was taken, to end with <see cref="EndCall"/>.</returns>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on the socket.</exception>
    internal bool BeginHeldCall()
    {
        if (TryBeginHeldCall(out int otherThread))
        {
            return true;
        }

        if (otherThread == Closed)
        {
            ThrowHelper.ThrowObjectDisposed(typeof(Socket));
        }

        if (otherThread != 0)
        {
            ThrowHelper.ThrowConcurrentUse(_type, otherThread);
        }

        return false;
    }

    /// <summary>Closes the native socket now, or leaves it to the call in flight. Once only; never blocks.</summary>
    public void Dispose()
    {
        if ((Interlocked.Or(ref _attention, CloseRequested) & CloseRequested) != 0)
        {
            return;
        }

        if (TryClaimIdle(Closed))
        {
            CloseNative();
        }
    }

    /// <summary>
    /// Stops the monitoring into a disposed SocketMonitor's event socket (<see cref="SocketHandle.StopDisposedMonitor"/>):
    /// now if no call is in flight, under the Stopping claim, which any thread's call waits out; else at the end of that
    /// call; a disposed socket's close stops it instead. Never blocks, never throws.
    /// </summary>
    internal void StopDisposedMonitor()
    {
        if (_threadSafe)
        {
            // Thread-safe: stopped under a lease whatever else runs; a closed handle's release stopped it.
            if (_handle.TryLease(out nint socket))
            {
                _handle.StopDisposedMonitor(socket);
                _handle.EndLease();
            }

            return;
        }

        Interlocked.Or(ref _attention, MonitorStopRequested);
        if (TryClaimIdle(Stopping))
        {
            StopMonitorAndRelease();
        }
    }

    /// <summary>
    /// Leases the native socket for <paramref name="holder"/> (a Poller entry, an EventLoop entry, a running Proxy) until
    /// <see cref="ReleaseHold"/>; the holder makes its libzmq calls under <see cref="TryBeginHeldCall"/>.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">The socket has been used with the asynchronous methods.</exception>
    internal nint Hold(string holder)
    {
        ThrowIfDisposed();
        lock (_lock)
        {
            if (_driver is not null)
            {
                ThrowHelper.ThrowInvalidOperation(
                    $"This {_type} socket has been used with SendAsync/RecvAsync and cannot be given to {holder}: a socket used " +
                    "with SendAsync/RecvAsync is driven by Net.Zmq's reactor; poll a socket you use synchronously only, or keep " +
                    "using the async API (await several sockets with Task.WhenAny or one receive loop each).");
            }

            nint socket = _handle.Lease(typeof(Socket));
            _holders++;
            Debug.Assert(_holders > 0, "holders overflowed");
            return socket;
        }
    }

    /// <summary>Gives back a hold taken by <see cref="Hold"/>.</summary>
    internal void ReleaseHold()
    {
        lock (_lock)
        {
            _holders--;
            Debug.Assert(_holders >= 0, "a hold given back twice");
            if (_holders == 0)
            {
                Volatile.Write(ref _heldBy, 0);
                Interlocked.And(ref _attention, ~Held);
            }
        }

        _handle.EndLease();
    }

    /// <summary>
    /// The async driver, started by the first asynchronous call: it watches the socket's <c>ZMQ_FD</c> and, from then
    /// on, every libzmq call on the socket runs inside its gate.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    /// <exception cref="InvalidOperationException">A Poller, an EventLoop or a running Proxy holds the socket.</exception>
    internal SocketAsyncDriver StartDriver()
    {
        lock (_lock)
        {
            if (_driver is { } existing)
            {
                return existing;
            }

            ThrowIfDisposed();
            if (_holders != 0)
            {
                ThrowHelper.ThrowInvalidOperation(
                    $"This {_type} socket is held by a Poller, an EventLoop or a running Proxy, which drive it outside Net.Zmq's " +
                    "reactor, so SendAsync/RecvAsync cannot be used on it now. Remove it from the Poller or the EventLoop (or " +
                    "dispose the Poller, or stop the proxy) first, or use the synchronous calls while it is held.");
            }

            // Leased until the driver is published and the Closed check below is done: a Dispose meanwhile that did
            // not see the driver leaves zmq_close to this lease's end, so the driver stops watching ZMQ_FD (its Dispose
            // below) before libzmq closes that descriptor and its number can be another socket's.
            nint socket = _handle.Lease(typeof(Socket));
            try
            {
                var driver = SocketAsyncDriver.Start(_handle, _type, ReadDescriptor(socket));
                _collector = new SocketAsyncDriverCollector(driver);

                // Published before the flag: a call that sees the flag sees the driver, and enters its gate.
                Volatile.Write(ref _driver, driver);
                Interlocked.Or(ref _attention, AwaitingHandOver);
                if (TryClaimIdle(HandingOver))
                {
                    // No call in flight: hand over now (and close, if a Dispose came meanwhile).
                    HandOverAndRelease();
                }
                else if (Volatile.Read(ref _claim) == Closed)
                {
                    // Closed by a Dispose that may have looked for the driver before it was published (both sides
                    // wrote with a full fence before reading, so at least one of them sees the other); disposing twice
                    // is harmless.
                    driver.Dispose();
                }

                return driver;
            }
            finally
            {
                _handle.EndLease();
            }
        }
    }

    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    internal void ThrowIfDisposed()
    {
        if (IsDisposed)
        {
            ThrowHelper.ThrowObjectDisposed(typeof(Socket));
        }
    }

    /// <summary>
    /// <see cref="BeginCall"/> when the compare-and-swap found the socket taken, or work waiting: a nested call, a draft
    /// socket's lease, a hand-over to run first, or a refusal.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private SocketCall BeginContendedCall(int thread, int owner)
    {
        if (owner == Idle)
        {
            // Claimed, with work waiting.
            Debug.Assert(Volatile.Read(ref _claim) == thread, "the claim just taken");
            int work = Volatile.Read(ref _attention);
            if ((work & CloseRequested) != 0)
            {
                // Disposed: give the claim back; if this was the call Dispose left the close to, close now.
                EndCall();
                ThrowHelper.ThrowObjectDisposed(typeof(Socket));
            }

            if ((work & Held) != 0 && Volatile.Read(ref _heldBy) is var holder && holder != thread && holder != 0)
            {
                // A holder polls the socket on another thread: the socket is that thread's while held.
                EndCall();
                ThrowHelper.ThrowHeldElsewhere(_type, holder);
            }

            if ((work & AwaitingHandOver) != 0)
            {
                // No call is in flight (this one holds the claim) and the driver is published (before the flag).
                HandOver();
            }

            if ((work & MonitorStopRequested) != 0)
            {
                StopRequestedMonitor();
            }

            Volatile.Read(ref _driver)?.EnterSync();
            return new SocketCall(this, _native);
        }

        if (owner is Stopping or HandingOver)
        {
            // A disposed SocketMonitor's stop (a few non-blocking libzmq calls) or the driver's hand-over: waited out,
            // whatever thread makes it.
            return BeginContendedCall(thread, ClaimOrFindOwner(thread));
        }

        if (owner == Closed || IsDisposed)
        {
            ThrowHelper.ThrowObjectDisposed(typeof(Socket));
        }

        if (_threadSafe)
        {
            return new SocketCall(this, _handle.Lease(typeof(Socket)));
        }

        if (owner != thread)
        {
            if (IsHeldBy(thread))
            {
                // The claim is another thread's on its way to being refused (see ClaimOrFindOwner).
                return BeginContendedCall(thread, ClaimOrFindOwner(thread));
            }

            if (IsHeldBy(owner))
            {
                ThrowHelper.ThrowHeldElsewhere(_type, owner); // the holder's thread is polling it
            }

            ThrowHelper.ThrowConcurrentUse(_type, owner);
        }

        _nested++;
        Volatile.Read(ref _driver)?.EnterSync();
        return new SocketCall(this, _native);
    }

    /// <summary>
    /// The compare-and-swap claim for <paramref name="thread"/>: the previous owner (Idle when taken). On a socket held
    /// for this thread, another thread's claim is only that thread on its way to being refused (it never reaches
    /// libzmq), so this waits it out instead of failing the holder's thread; and any thread waits out a Stopping or
    /// HandingOver claim.
    /// </summary>
    private int ClaimOrFindOwner(int thread)
    {
        int owner = Interlocked.CompareExchange(ref _claim, thread, Idle);
        SpinWait spin = default;
        while (owner != Idle && owner != Closed && owner != thread && (owner is Stopping or HandingOver || IsHeldBy(thread)))
        {
            spin.SpinOnce();
            owner = Interlocked.CompareExchange(ref _claim, thread, Idle);
        }

        return owner;
    }

    private bool IsHeldBy(int thread) => (Volatile.Read(ref _attention) & Held) != 0 && Volatile.Read(ref _heldBy) == thread;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EndNestedOrSharedCall()
    {
        if (_threadSafe)
        {
            _handle.EndLease();
            return;
        }

        Debug.Assert(Volatile.Read(ref _claim) == CallingThread.Id, "only the claiming thread ends a nested call");
        _nested--;
        Debug.Assert(_nested >= 0, "more nested calls ended than begun");
    }

    /// <summary>
    /// After a call gave the claim back with work flagged: whoever takes the claim from Idle does the work (see the
    /// header). When the claim is taken again, the call in flight does it at its end.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RunExitWork()
    {
        int work = Volatile.Read(ref _attention);
        if ((work & CloseRequested) != 0)
        {
            if (Interlocked.CompareExchange(ref _claim, Closed, Idle) == Idle)
            {
                CloseNative();
            }
        }
        else if ((work & AwaitingHandOver) != 0 && Interlocked.CompareExchange(ref _claim, HandingOver, Idle) == Idle)
        {
            HandOverAndRelease();
        }
        else if ((work & MonitorStopRequested) != 0 && Interlocked.CompareExchange(ref _claim, Stopping, Idle) == Idle)
        {
            StopMonitorAndRelease();
        }
    }

    /// <summary>
    /// Under the Stopping claim, taken from Idle: stops the disposed SocketMonitor's monitoring (unless the socket is
    /// being closed, whose close stops it), gives the claim back, and runs what came meanwhile.
    /// </summary>
    private void StopMonitorAndRelease()
    {
        if ((Volatile.Read(ref _attention) & CloseRequested) == 0)
        {
            StopRequestedMonitor();
        }

        Debug.Assert(Volatile.Read(ref _claim) == Stopping, "stopped under the Stopping claim");
        Volatile.Write(ref _claim, Idle);
        if (Volatile.Read(ref _attention) != 0)
        {
            RunExitWork(); // a Dispose that met this claim
        }
    }

    /// <summary>
    /// Under the Stopping claim or a call's: stops the monitoring a disposed SocketMonitor asked to stop, once, inside
    /// the driver's gate if there is a driver (whose pump keeps off libzmq until its hand-over anyway).
    /// </summary>
    private void StopRequestedMonitor()
    {
        Debug.Assert(
            Volatile.Read(ref _claim) is var claim && (claim == Stopping || claim == CallingThread.Id),
            "the monitor is stopped only under the claim");
        if ((Interlocked.And(ref _attention, ~MonitorStopRequested) & MonitorStopRequested) == 0)
        {
            return;
        }

        SocketAsyncDriver? driver = Volatile.Read(ref _driver);
        driver?.EnterSync();
        _handle.StopDisposedMonitor(_native);
        driver?.ExitSync();
    }

    /// <summary>
    /// Hands the socket over to the driver under the HandingOver claim, gives the claim back, runs what came meanwhile,
    /// then pumps what was parked before the hand-over (in the driver's gate, as the reactor's pumps: not under the claim).
    /// </summary>
    private void HandOverAndRelease()
    {
        HandOver();
        Debug.Assert(Volatile.Read(ref _claim) == HandingOver, "handed over under the HandingOver claim");
        Volatile.Write(ref _claim, Idle);
        if (Volatile.Read(ref _attention) != 0)
        {
            RunExitWork(); // a Dispose that met this claim
        }

        Volatile.Read(ref _driver)!.Pump();
    }

    /// <summary>
    /// Under the claim (a call's or HandingOver): the call that began before the driver existed has ended, so the driver
    /// may call libzmq. Both the starter (its second try after the barrier) and the end of that call may get here, one
    /// after the other under the claim: whoever clears the flag hands over, once. What was parked meanwhile is pumped by
    /// the caller once it is out of the claim, or by the claimed call's end (which pumps when an operation waits).
    /// </summary>
    private void HandOver()
    {
        Debug.Assert(
            Volatile.Read(ref _claim) is var claim && (claim == HandingOver || claim == CallingThread.Id),
            "handed over only under the claim");
        if ((Interlocked.And(ref _attention, ~AwaitingHandOver) & AwaitingHandOver) != 0)
        {
            Volatile.Read(ref _driver)!.HandOver();
        }
    }

    /// <summary>
    /// Takes the claim as <paramref name="value"/> if no call is in flight, for <see cref="Dispose"/> and the driver's
    /// start, which set their <c>_attention</c> flag first: false when a call is in flight, whose end then does the work.
    /// </summary>
    private bool TryClaimIdle(int value)
    {
        if (Interlocked.CompareExchange(ref _claim, value, Idle) == Idle)
        {
            return true;
        }

        // See the header: after this barrier, a call's end either shows here or sees the flag.
        Interlocked.MemoryBarrierProcessWide();
        return Interlocked.CompareExchange(ref _claim, value, Idle) == Idle;
    }

    /// <summary>Closes the native socket under the Closed claim: the driver first, then the handle (zmq_close waits for the last lease).</summary>
    private void CloseNative()
    {
        Debug.Assert(Volatile.Read(ref _claim) == Closed, "closed only under the Closed claim");
        if (Volatile.Read(ref _driver) is { } driver)
        {
            driver.Dispose();
            _collector!.Dispose();
        }

        _handle.Dispose();
    }

    /// <summary>
    /// The socket's <c>ZMQ_FD</c>, read under the starter's lease rather than the claim: another thread may be inside a
    /// call on the socket when its first asynchronous call comes (reading <c>ZMQ_FD</c> only returns its mailbox's
    /// descriptor, which never changes).
    /// </summary>
    private unsafe nint ReadDescriptor(nint socket)
    {
        // An int on Unix, a SOCKET (pointer-sized) on Windows; zero-extended either way.
        nint descriptor = 0;
        nuint size = OperatingSystem.IsWindows() ? (nuint)sizeof(nint) : sizeof(int);
        if (LibZmq.GetSockOpt(socket, (int)SocketOption.FileDescriptor, &descriptor, &size) != 0)
        {
            ThrowHelper.ThrowZmq(LibZmq.Errno(), $"Reading ZMQ_FD of a {_type} socket");
        }

        return descriptor;
    }
}
