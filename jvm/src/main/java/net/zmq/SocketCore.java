package net.zmq;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import net.zmq.internal.LibZmq;
import net.zmq.internal.Native;

/**
 * A socket's native state and the claim that makes it safe to use from any thread, one at a time.
 *
 * <p>Invariant: {@code owner} is {@link #FREE} when no call is in flight, the calling thread's id during a call
 * ({@link #begin} to {@link #end}), and {@link #CLOSED} once the native socket is closed; only the thread that moved it
 * away from FREE touches the native socket or its zmq_msg_t and option memory. A close asked for during a call
 * ({@code closeRequested}) is carried out by that call's {@link #end}, so the native socket is never closed under a
 * running libzmq call. This object holds no reference to the {@link Socket} or the {@link Context}: it is the
 * Cleaner action of the former and is reachable from the latter's termination.
 */
final class SocketCore implements Runnable {
    static final long FREE = 0;
    static final long CLOSED = -1;
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(SocketCore.class, "owner", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final MemorySegment handle;
    final SocketType type;
    private final Set<SocketCore> registry;
    @SuppressWarnings("unused") // accessed through OWNER
    private volatile long owner;
    private volatile boolean closeRequested;
    /** Why the socket was closed by someone other than its user, for the message of a later call. */
    private volatile String closedBy = "the socket was closed";

    /** Option values and their size (a size_t at offset 0, the value from offset 8, up to 256 bytes). */
    final MemorySegment optionBuffer;
    /** The zmq_msg_t frames are received into (then copied out), and the one array sends are built in; made on first use. */
    private MemorySegment message;
    private MemorySegment sendMessage;
    /** RCVTIMEO and SNDTIMEO as last set, for the waits that do not block in libzmq (virtual threads). */
    int receiveTimeoutMs = -1;
    int sendTimeoutMs = -1;
    /**
     * The descriptor the reactor watches for a virtual thread's wait once one waited (-1 before): ZMQ_FD, or for a
     * thread-safe socket that of notificationPoller, a zmq_poller holding it (NULL otherwise); and the thread waiting now.
     */
    int notificationFd = -1;
    MemorySegment notificationPoller = MemorySegment.NULL;
    volatile Thread waiter;

    SocketCore(MemorySegment handle, SocketType type, Set<SocketCore> registry) {
        this.handle = handle;
        this.type = type;
        this.registry = registry;
        this.optionBuffer = Native.malloc(8 + 264);
    }

    /** Claims the socket for the calling thread; throws when another thread is inside a call or it is closed. */
    void begin() {
        long id = Thread.currentThread().threadId();
        if (!OWNER.compareAndSet(this, FREE, id)) {
            contended(id);
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

    /** Ends the call begun by {@link #begin}; carries out a close asked for meanwhile. */
    void end() {
        assert (long) OWNER.getVolatile(this) == Thread.currentThread().threadId() : "end() by a thread that does not hold the claim";
        OWNER.setVolatile(this, FREE);
        if (closeRequested) {
            tryClose();
        }
    }

    /** Closes now if no call is in flight, else when the call ends. Idempotent, any thread. */
    void requestClose() {
        requestClose("the socket was closed");
    }

    void requestClose(String reason) {
        if (!closeRequested) {
            closedBy = reason;
        }
        closeRequested = true;
        tryClose();
    }

    private void tryClose() {
        if (OWNER.compareAndSet(this, FREE, CLOSED)) {
            closeNative();
        }
    }

    private void closeNative() {
        if (notificationFd >= 0) {
            net.zmq.internal.Reactor.unregister(notificationFd);
        }
        if (notificationPoller.address() != 0) { // before the socket: it unregisters itself from the socket
            optionBuffer.set(java.lang.foreign.ValueLayout.ADDRESS, 0, notificationPoller);
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
        registry.remove(this);
    }

    /** Whether some thread is inside a call now (for tests). */
    boolean inCall() {
        long owner = (long) OWNER.getVolatile(this);
        return owner != FREE && owner != CLOSED;
    }

    boolean isClosed() {
        return (long) OWNER.getVolatile(this) == CLOSED;
    }

    /** The socket's own zmq_msg_t (claim held). */
    MemorySegment message() {
        if (message == null) {
            MemorySegment msg = Native.malloc(LibZmq.MSG_SIZE);
            LibZmq.msgInit(msg);
            message = msg;
        }
        return message;
    }

    /** The zmq_msg_t array sends are built in (claim held); uninitialised between sends. */
    MemorySegment sendMessage() {
        if (sendMessage == null) {
            sendMessage = Native.malloc(LibZmq.MSG_SIZE);
        }
        return sendMessage;
    }

    /** Cleaner action: the Socket became unreachable without close. */
    @Override
    public void run() {
        requestClose("the socket was collected without close");
    }
}
