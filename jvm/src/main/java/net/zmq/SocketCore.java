package net.zmq;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import net.zmq.internal.LibZmq;
import net.zmq.internal.Native;
import net.zmq.internal.Reactor;

/**
 * A socket's native state and the claim that makes it safe to use from any thread, one at a time (any number at once
 * for the types libzmq makes thread-safe).
 *
 * <p>Invariant: {@code owner} is {@link #FREE} when no call is in flight, the calling thread's id during a call
 * ({@link #begin} to {@link #end}), and {@link #CLOSED} once the native socket is closed; only the thread that moved
 * it away from FREE touches the native socket, its zmq_msg_t and option memory, and its sent-array slots (whose
 * segment is null or a segment over the slot's own array). A thread-safe socket ({@code threadSafe}: libzmq locks
 * around each call) leaves {@code owner} FREE until CLOSED and counts its calls in flight in {@code calls} instead;
 * each call uses its thread's {@link CallScratch}, never this object's memory. A close asked for during a call
 * ({@code closedBy} set) is carried out by the call that ends last, so the native socket is never closed under a
 * running libzmq call: a close and a call's begin or end each write their own word, then read the other's, all
 * volatile, so at least one of them sees the other. A virtual thread parked in a wait on the socket
 * ({@link #addWaiter}) is woken by the close and ends its call (see {@link #requestClose(String)}). This object holds no
 * reference to its {@link Socket} or the {@link Context} (only, while monitored, to its monitor's event socket): it is
 * the Cleaner action of the former and is reachable from the latter's termination.
 */
final class SocketCore implements Runnable {
    static final long FREE = 0;
    static final long CLOSED = -1;
    /** Bytes of an option buffer: the size (a size_t) at offset 0, the value from offset 8, up to 264 bytes. */
    static final long OPTION_BUFFER_SIZE = 8 + 264;
    private static final int ZMQ_THREAD_SAFE = 81;
    private static final int ZMQ_EVENTS = 15;
    private static final VarHandle OWNER;
    private static final VarHandle CALLS;
    private static final VarHandle CLOSED_BY;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(SocketCore.class, "owner", long.class);
            CALLS = MethodHandles.lookup().findVarHandle(SocketCore.class, "calls", int.class);
            CLOSED_BY = MethodHandles.lookup().findVarHandle(SocketCore.class, "closedBy", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final MemorySegment handle;
    final SocketType type;
    private final Set<SocketCore> registry;
    @SuppressWarnings("unused") // accessed through OWNER
    private volatile long owner;
    /** Whether libzmq makes this socket thread-safe (ZMQ_THREAD_SAFE): then calls are counted, not claimed. */
    final boolean threadSafe;
    @SuppressWarnings("unused") // accessed through CALLS
    private volatile int calls;
    /**
     * Why a close was asked for, for the message of a later call: null until then, set once ({@link #CLOSED_BY}), so
     * "a close was asked for" is {@code closedBy != null}.
     */
    private volatile String closedBy;
    private static final String CLOSED_BY_USER = "the socket was closed";
    private static final String CLOSED_BY_CONTEXT = "the socket's context was closed";
    private static final String CLOSED_BY_CLEANER = "the socket was collected without close";

    /** Option values and their size (see {@link #OPTION_BUFFER_SIZE}); calls reach it through {@link #options}. */
    private final MemorySegment optionBuffer;
    /** Where this socket's calls capture errno; calls reach it through {@link #callState}. */
    private final MemorySegment callState;
    /** The zmq_msg_t frames are received into (then copied out), and the one array sends are built in; made on first use. */
    private MemorySegment message;
    private MemorySegment sendMessage;
    /**
     * The most a socket keeps of data that is not its own: an array it sent (in a slot below) or the frame it received
     * last (see {@link #copiedOut}), each at most this large.
     */
    private static final int KEPT_MAX = 64 << 10;
    /**
     * Two arrays sent through {@link #arraySegment}, each with its heap segment once it was sent again (null before),
     * and which of the two was sent last. Claim held; unused on a thread-safe socket.
     */
    private byte[] sentArray0;
    private byte[] sentArray1;
    private MemorySegment sentSegment0;
    private MemorySegment sentSegment1;
    private boolean lastSentIs1;
    /**
     * Whether a bind or connect succeeded: from then on security options are refused, as libzmq would apply them only
     * to later endpoints and leave those already bound or connected open to any peer.
     */
    volatile boolean boundOrConnected;
    /**
     * On a ROUTER or STREAM socket (claim held): the CONNECT_ROUTING_ID set for the next connect that takes it (null when
     * none), and every routing id this socket's connects gave (null before the first). libzmq aborts the process when
     * a connect would give a second pipe the same routing id: {@link Socket#connect} checks first, with these where
     * libzmq cannot say (a STREAM, or no draft API). An id stays in the set after its disconnect, as libzmq drops the
     * pipe only later.
     */
    byte[] pendingConnectId;
    java.util.Set<java.nio.ByteBuffer> connectIds;
    /** RCVTIMEO and SNDTIMEO as last set, for the waits that do not block in libzmq (virtual threads). */
    volatile int receiveTimeoutMs = -1;
    volatile int sendTimeoutMs = -1;
    /**
     * The descriptor the reactor watches for a virtual thread's wait once one waited (-1 before): ZMQ_FD, or for a
     * thread-safe socket that of notificationPoller, a zmq_poller holding it (NULL otherwise). Set once, under this
     * object's lock.
     */
    int notificationFd = -1;
    MemorySegment notificationPoller = MemorySegment.NULL;
    /**
     * The event socket of the {@link SocketMonitor} of this socket while it monitors, else null; under this object's
     * lock. libzmq sends each event with a blocking send, from its I/O and reaper threads too, and still after
     * zmq_close: an event socket closed while libzmq monitors would stop the sending thread at the next event. Held
     * here, a monitor dropped unclosed cannot have its event socket collected (and closed) before this socket's close,
     * which stops the monitoring first ({@link #closeNative}).
     */
    private Socket monitorEvents;
    /** The virtual thread parked in a wait on this socket; for a thread-safe socket, all of them (waiters). */
    private volatile Thread waiter;
    private final Set<Thread> waiters;

    SocketCore(MemorySegment handle, SocketType type, Set<SocketCore> registry) {
        this.handle = handle;
        this.type = type;
        this.registry = registry;
        // One block: the option buffer at its start (freed through it), then where calls capture errno.
        MemorySegment block = Native.malloc(OPTION_BUFFER_SIZE + LibZmq.CALL_STATE_SIZE);
        this.optionBuffer = block.asSlice(0, OPTION_BUFFER_SIZE);
        this.callState = block.asSlice(OPTION_BUFFER_SIZE, LibZmq.CALL_STATE_SIZE);
        optionBuffer.set(JAVA_LONG, 0, 4);
        // An older libzmq without ZMQ_THREAD_SAFE refuses the option: its sockets are then treated as not thread-safe.
        this.threadSafe = LibZmq.getsockopt(true, callState, handle, ZMQ_THREAD_SAFE, optionBuffer.asSlice(8), optionBuffer) == 0
                && optionBuffer.get(JAVA_INT, 8) != 0;
        this.waiters = threadSafe ? ConcurrentHashMap.newKeySet() : null;
    }

    /**
     * Claims the socket for the calling thread; throws when another thread is inside a call (unless the socket is
     * thread-safe) or it is closed.
     */
    void begin() {
        if (threadSafe) {
            beginShared();
            return;
        }
        long id = Thread.currentThread().threadId();
        if (!OWNER.compareAndSet(this, FREE, id)) {
            contended(id);
        }
        if (closedBy != null) { // asked for as a call ended, before that call's close could take the claim
            end(); // carries it out
            throw new IllegalStateException(closedBy + "; create a new socket");
        }
    }

    private void contended(long id) {
        long current = (long) OWNER.getVolatile(this);
        if (current == CLOSED) {
            throw new IllegalStateException(closedBy + "; create a new socket");
        }
        if (current == id) {
            throw new IllegalStateException("this thread is already inside a call on this " + type
                    + " socket (a call from a callback of that call?): return from it first");
        }
        if (current == FREE) { // released in between: try once more
            if (OWNER.compareAndSet(this, FREE, id)) {
                return;
            }
            contended(id);
            return;
        }
        throw new IllegalStateException("this " + type + " socket is in use by another thread (id " + current
                + "): a ZeroMQ socket must be used by one thread at a time. Give each thread its own socket, or pass "
                + "the socket between threads through a queue or a lock so calls never overlap");
    }

    /** A call on a thread-safe socket: counted in, unless a close was asked for (read after the count). */
    private void beginShared() {
        CALLS.getAndAdd(this, 1);
        if (closedBy != null) {
            endShared();
            throw new IllegalStateException(closedBy + "; create a new socket");
        }
    }

    private void endShared() {
        int before = (int) CALLS.getAndAdd(this, -1);
        assert before > 0 : "endShared() without a call in flight";
        if (before == 1 && closedBy != null) {
            tryClose();
        }
    }

    /** Ends the call begun by {@link #begin}; carries out a close asked for meanwhile. */
    void end() {
        if (threadSafe) {
            endShared();
            return;
        }
        assert (long) OWNER.getVolatile(this) == Thread.currentThread().threadId() : "end() by a thread that does not hold the claim";
        OWNER.setVolatile(this, FREE);
        if (closedBy != null) {
            tryClose();
        }
    }

    /** Closes now if no call is in flight, else when the call ends. Idempotent, any thread. */
    void requestClose() {
        requestClose(CLOSED_BY_USER);
    }

    private void requestClose(String reason) {
        CLOSED_BY.compareAndSet(this, null, reason); // the first reason stays
        tryClose();
        // A virtual thread parked in a wait on this socket wakes, sees closeRequested() and ends its call, which closes
        // the socket. A waiter registers itself (a volatile write) before it reads closedBy, and this reads the waiters
        // after writing it: either it sees the close, or it is woken here. The fence keeps that read after the write
        // even where the waiter set's reads are acquire loads rather than volatile ones.
        VarHandle.fullFence();
        wakeWaiters();
    }

    /** As {@link #requestClose()}, by the socket's context as it closes: a parked wait then ends as with ETERM. */
    void requestCloseByContext() {
        requestClose(CLOSED_BY_CONTEXT);
    }

    /**
     * Whether a close was asked for (read during a call, claim held): a virtual thread's parked wait then ends with
     * {@link #closedDuringWait} rather than keep the socket open for as long as nothing arrives.
     */
    boolean closeRequested() {
        return closedBy != null;
    }

    /**
     * What a wait ended by a close throws (what: the call, e.g. "Receiving"). A close by the context throws as
     * libzmq's ETERM does for a wait blocked inside libzmq.
     */
    RuntimeException closedDuringWait(String what) {
        String why = closedBy;
        return why == CLOSED_BY_CONTEXT ? new ContextTerminatedException(what + " (the context's close closed this socket)")
                : new IllegalStateException(what + ": " + why + " during the wait; create a new socket");
    }

    private void tryClose() {
        // A thread-safe socket: a call counted in after the count was read here has read closedBy as set and
        // backs out without calling libzmq (beginShared).
        if ((!threadSafe || (int) CALLS.getVolatile(this) == 0) && OWNER.compareAndSet(this, FREE, CLOSED)) {
            closeNative();
        }
    }

    private void closeNative() {
        synchronized (this) {
            if (monitorEvents != null) {
                if (!monitorEvents.isClosed()) { // else that close already left libzmq's sends without a reader
                    LibZmq.socketMonitor(callState, handle, MemorySegment.NULL, 0); // no event after this
                }
                monitorEvents = null;
                notifyAll(); // awaitMonitoringStopped
            }
        }
        if (notificationFd >= 0) {
            Reactor.unregister(notificationFd);
        }
        if (notificationPoller.address() != 0) { // before the socket: it unregisters itself from the socket
            optionBuffer.set(ADDRESS, 0, notificationPoller);
            LibZmq.pollerDestroy(optionBuffer);
        }
        if (message != null) {
            LibZmq.msgClose(message);
            Native.free(message);
        }
        if (sendMessage != null) {
            Native.free(sendMessage); // closed: libzmq took or we released every frame built in it
        }
        LibZmq.close(handle); // fails only for an invalid handle; this one is valid until now
        Native.free(optionBuffer);
        forgetSentArrays(); // the user's arrays: not kept by a closed socket
        registry.remove(this);
    }

    /** Whether some thread is inside a call now (for tests). */
    boolean inCall() {
        long owner = (long) OWNER.getVolatile(this);
        return threadSafe ? owner != CLOSED && (int) CALLS.getVolatile(this) > 0 : owner != FREE && owner != CLOSED;
    }

    /** How many threads are parked in a wait on this socket now (for tests). */
    int parkedWaiters() {
        if (waiters != null) {
            return (int) waiters.stream().filter(t -> t.getState() == Thread.State.WAITING).count();
        }
        Thread t = waiter;
        return t != null && t.getState() == Thread.State.WAITING ? 1 : 0;
    }

    /** How many calls are in flight on a thread-safe socket (for tests). */
    int callsInFlight() {
        return (int) CALLS.getVolatile(this);
    }

    boolean isClosed() {
        return (long) OWNER.getVolatile(this) == CLOSED;
    }

    /**
     * The zmq_msg_t to receive into (claim held): the socket's own, or on a thread-safe socket the thread's, which
     * {@link #endReceive} empties again as the call ends.
     */
    MemorySegment message() {
        if (threadSafe) {
            return CallScratch.ofThread().message;
        }
        if (message == null) {
            MemorySegment msg = Native.malloc(LibZmq.MSG_SIZE);
            LibZmq.msgInit(msg);
            message = msg;
        }
        return message;
    }

    /**
     * After a frame of size bytes was copied out of {@link #message} (claim held): a frame over
     * {@link #KEPT_MAX} is released now rather than at the next receive, so a socket never holds a large frame
     * nobody can read any more. A smaller one stays: releasing it would cost two calls per receive. (A thread-safe
     * socket's frames are released by {@link #endReceive}.)
     */
    void copiedOut(long size) {
        if (size > KEPT_MAX && !threadSafe) {
            LibZmq.msgClose(message);
            LibZmq.msgInit(message);
        }
    }

    /**
     * Ends a call that received into {@link #message}; on a thread-safe socket it first releases the frame held in the
     * thread's zmq_msg_t, so that no frame outlives the call there.
     */
    void endReceive() {
        if (threadSafe) {
            MemorySegment msg = CallScratch.ofThread().message;
            LibZmq.msgClose(msg);
            LibZmq.msgInit(msg);
        }
        end();
    }

    /** The zmq_msg_t array sends are built in (claim held); uninitialised between sends. */
    MemorySegment sendMessage() {
        if (threadSafe) {
            return CallScratch.ofThread().sendMessage;
        }
        if (sendMessage == null) {
            sendMessage = Native.malloc(LibZmq.MSG_SIZE);
        }
        return sendMessage;
    }

    /**
     * A heap segment over array, for a critical send straight from it (claim held). An array of at most
     * {@link #KEPT_MAX} bytes sent again while it holds one of two slots gets a segment kept there, so a buffer
     * reused for every send (or two that alternate, as a routing id and a payload do) costs no allocation whatever the
     * JIT decides. Any other such array takes the slot not used last; every array not found in a slot gets a new
     * segment, which the JIT removes when it inlines this whole call. The socket keeps the arrays in its slots
     * reachable until it sends others, its sends stop being critical ({@link #forgetSentArrays}) or it closes.
     */
    MemorySegment arraySegment(byte[] array) {
        if (threadSafe || array.length > KEPT_MAX) {
            return MemorySegment.ofArray(array);
        }
        assert (long) OWNER.getVolatile(this) == Thread.currentThread().threadId() : "the slots are used without the claim";
        assert sentSegment0 == null || sentSegment0.heapBase().orElseThrow() == sentArray0 : "slot 0's segment is over another array";
        assert sentSegment1 == null || sentSegment1.heapBase().orElseThrow() == sentArray1 : "slot 1's segment is over another array";
        if (array == sentArray0) {
            lastSentIs1 = false;
            return sentSegment0 != null ? sentSegment0 : (sentSegment0 = MemorySegment.ofArray(array));
        }
        if (array == sentArray1) {
            lastSentIs1 = true;
            return sentSegment1 != null ? sentSegment1 : (sentSegment1 = MemorySegment.ofArray(array));
        }
        if (lastSentIs1) {
            sentArray0 = array;
            sentSegment0 = null;
        } else {
            sentArray1 = array;
            sentSegment1 = null;
        }
        lastSentIs1 = !lastSentIs1;
        return MemorySegment.ofArray(array);
    }

    /** Empties the slots of {@link #arraySegment} (claim held): sends no longer use them. */
    void forgetSentArrays() {
        if (sentArray0 != null || sentArray1 != null) {
            sentArray0 = sentArray1 = null;
            sentSegment0 = sentSegment1 = null;
        }
    }

    /**
     * Whether an option call may be critical (see LibZmq): not on a thread-safe socket (its lock), nor for ZMQ_EVENTS
     * (it processes commands).
     */
    boolean criticalOption(int option) {
        return !threadSafe && option != ZMQ_EVENTS;
    }

    /** Where this call captures errno (claim held): the socket's, or on a thread-safe socket the thread's. */
    MemorySegment callState() {
        return threadSafe ? CallScratch.ofThread().callState : callState;
    }

    /** The option buffer for this call (claim held): the socket's, or on a thread-safe socket the thread's. */
    MemorySegment options() {
        return threadSafe ? CallScratch.ofThread().options : optionBuffer;
    }

    /** A {@link SocketMonitor} monitors this socket into events (see {@link #monitorEvents}); null: none does. */
    synchronized void monitoredInto(Socket events) {
        monitorEvents = events;
    }

    /** Whether libzmq monitors this socket into events, a {@link SocketMonitor}'s (not replaced by a later monitor call). */
    synchronized boolean monitorsInto(Socket events) {
        return monitorEvents == events;
    }

    /**
     * Once this socket is closed: waits until its close has stopped libzmq's monitoring (it does so at once, without
     * waiting on anything), so the monitor's event socket can be closed.
     */
    synchronized void awaitMonitoringStopped() {
        assert isClosed() : "waiting for a close that was not made";
        boolean interrupted = false;
        while (monitorEvents != null) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Registers t as parked in a wait on this socket until {@link #removeWaiter}, for {@link #wakeWaiters}. */
    void addWaiter(Thread t) {
        if (waiters != null) {
            waiters.add(t);
        } else {
            waiter = t;
        }
    }

    void removeWaiter(Thread t) {
        if (waiters != null) {
            waiters.remove(t);
        } else {
            waiter = null;
        }
    }

    /** Unparks the threads waiting on this socket (the reactor, when its descriptor signalled; a close). */
    void wakeWaiters() {
        if (waiters != null) {
            for (Thread t : waiters) {
                LockSupport.unpark(t);
            }
        } else {
            Thread t = waiter;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Cleaner action: the Socket became unreachable without close. */
    @Override
    public void run() {
        requestClose(CLOSED_BY_CLEANER);
    }
}
