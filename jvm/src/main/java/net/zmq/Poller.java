package net.zmq;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import net.zmq.internal.Errno;
import net.zmq.internal.LibZmq;
import net.zmq.internal.Native;
import net.zmq.internal.Reactor;

/**
 * Waits for any of several sockets to become readable or writable (zmq_poll). Add sockets once, then poll any number
 * of times: the poll items live in native memory made once, so a poll allocates nothing. While a poll runs it holds
 * each socket's claim, so another thread's call on one of them throws {@link IllegalStateException}. Use a poller
 * from one thread at a time (another thread's {@link #add} or {@link #poll} during a call throws
 * {@link IllegalStateException}) and close it. On a virtual thread a poll that waits does not block in libzmq (which
 * would pin the carrier): it parks until one of the sockets' descriptors signals, then looks again. A poller that is
 * never closed has its native memory freed by a Cleaner once it is unreachable.
 *
 * <p>Invariant: {@code user} is null between calls, the calling thread during {@link #add} or {@link #poll}, and
 * {@link #CLOSED} once the native memory is freed; only that thread touches the native memory. A close asked for
 * during a call ({@code closeRequested}) is carried out as the call ends, so zmq_poll never runs on freed memory: the
 * close and a call's end each write their own word, then read the other's, all volatile. A poll parked on a virtual
 * thread is woken by the close and ends at once.
 */
public final class Poller implements AutoCloseable {
    /** Event bit: a frame can be received. */
    public static final int READABLE = 1;
    /** Event bit: a frame can be sent. */
    public static final int WRITABLE = 2;

    /** zmq_pollitem_t: socket pointer, fd (int on POSIX, SOCKET on Windows), events, revents. */
    private static final boolean WINDOWS = System.getProperty("os.name").startsWith("Windows");
    private static final long ITEM_SIZE = WINDOWS ? 24 : 16;
    private static final long EVENTS_OFFSET = WINDOWS ? 16 : 12;

    private static final Object CLOSED = new Object();
    private static final VarHandle USER;

    static {
        try {
            USER = MethodHandles.lookup().findVarHandle(Poller.class, "user", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through USER
    private volatile Object user;
    private volatile boolean closeRequested;
    private final List<Socket> sockets = new ArrayList<>();
    /** Each socket's events at the last poll, copied out of the items: read without the native memory. */
    private short[] revents = new short[4];
    final NativeItems memory = new NativeItems();
    /** Frees memory: by close, or by the Cleaner once this poller is unreachable. */
    private final Cleaner.Cleanable cleanable = Context.CLEANER.register(this, memory);

    /**
     * The poller's native memory, apart from the poller so that the Cleaner can free it: a poller that is never
     * closed does not leak it.
     */
    static final class NativeItems implements Runnable {
        /** The zmq_pollitem_t array, replaced by a larger one as sockets are added; volatile, as the Cleaner frees it. */
        volatile MemorySegment items = Native.malloc(ITEM_SIZE * 4);
        /** Where a failed zmq_poll's second try captures errno (see {@link LibZmq#poll}). */
        final MemorySegment callState = Native.malloc(LibZmq.CALL_STATE_SIZE);
        /** Set once both are freed: by close (the poller is then closed), or by the Cleaner once it is unreachable. */
        volatile boolean freed;

        @Override
        public void run() {
            Native.free(items);
            Native.free(callState);
            freed = true;
        }
    }

    /** An empty poller. */
    public Poller() {
    }

    /**
     * Adds socket, watched for events (a mask of {@link #READABLE} and {@link #WRITABLE}).
     *
     * @return its index, for {@link #isReadable} and {@link #isWritable}
     * @throws IllegalArgumentException events is not such a mask, or the socket was added already
     */
    public int add(Socket socket, int events) {
        enter();
        try {
            return addClaimed(socket, events);
        } finally {
            exit();
        }
    }

    private int addClaimed(Socket socket, int events) {
        if ((events & ~(READABLE | WRITABLE)) != 0 || events == 0) {
            throw new IllegalArgumentException("events must be READABLE, WRITABLE or both (got " + events + ")");
        }
        int existing = sockets.indexOf(socket);
        if (existing >= 0) { // its second claim in poll() would be refused, and every poll with it
            throw new IllegalArgumentException("this socket is already in the poller at index " + existing
                    + ": add it once, with READABLE | WRITABLE for both");
        }
        int index = sockets.size();
        MemorySegment items = memory.items;
        if ((index + 1) * ITEM_SIZE > items.byteSize()) {
            MemorySegment grown = Native.malloc(items.byteSize() * 2);
            MemorySegment.copy(items, 0, grown, 0, items.byteSize());
            Native.free(items);
            memory.items = items = grown;
        }
        MemorySegment item = items.asSlice(index * ITEM_SIZE, ITEM_SIZE);
        item.fill((byte) 0);
        item.set(ADDRESS, 0, socket.core.handle);
        item.set(JAVA_SHORT, EVENTS_OFFSET, (short) events);
        if (index == revents.length) {
            revents = Arrays.copyOf(revents, index * 2);
        }
        revents[index] = 0;
        sockets.add(socket);
        return index;
    }

    /** The number of sockets added. */
    public int size() {
        return sockets.size();
    }

    /**
     * Waits until at least one socket is ready or the timeout passes (null, negative or longer than about 146 years:
     * forever; zero: just look; counted in whole milliseconds, a fraction of one rounded up).
     *
     * @return how many sockets are ready (0 when the timeout passed)
     * @throws ContextTerminatedException a socket's context was shut down, or closed during the poll
     * @throws IllegalStateException      the poller or one of its sockets is closed (as its context's close closes it), or another thread uses one of
     *                                    them; or, on a virtual thread, one of them was closed during the wait; or the
     *                                    poller has no sockets and the timeout is forever (it would never return)
     */
    public int poll(Duration timeout) {
        enter();
        try {
            int count = sockets.size();
            Arrays.fill(revents, 0, count, (short) 0); // a poll that throws leaves no earlier answer behind
            int ready = pollClaimed(timeout);
            MemorySegment items = memory.items;
            for (int i = 0; i < count; i++) {
                revents[i] = items.get(JAVA_SHORT, i * ITEM_SIZE + EVENTS_OFFSET + 2);
            }
            return ready;
        } finally {
            exit();
        }
    }

    private int pollClaimed(Duration timeout) {
        long timeoutMs = Timeouts.isForever(timeout) ? -1 : Timeouts.millisRoundedUp(timeout);
        int count = sockets.size();
        if (count == 0) {
            return pollNothing(timeoutMs);
        }
        int claimed = 0;
        try {
            for (; claimed < count; claimed++) {
                SocketCore c = sockets.get(claimed).core;
                if (c.isClosed()) {
                    throw new IllegalStateException("socket " + claimed + " (" + c.type + ") of this poller is closed: "
                            + "make a new poller without it");
                }
                c.begin();
            }
            long deadline = timeoutMs > 0 ? System.nanoTime() + timeoutMs * 1_000_000L : 0;
            if (timeoutMs != 0 && Thread.currentThread().isVirtual() && Reactor.available()) {
                int rc = pollParking(count, timeoutMs > 0, deadline);
                if (rc >= 0) {
                    return rc;
                }
                timeoutMs = Timeouts.left(deadline, timeoutMs); // the reactor stopped: wait in libzmq for what is left
            }
            while (true) {
                int rc = LibZmq.poll(memory.callState, memory.items, count, timeoutMs);
                if (rc >= 0) {
                    return rc;
                }
                throwUnlessInterrupted(count);
                timeoutMs = Timeouts.left(deadline, timeoutMs); // after a signal (EINTR): not the whole timeout again
            }
        } finally {
            for (int i = 0; i < claimed; i++) {
                sockets.get(i).core.end();
            }
        }
    }

    /**
     * A poll on a virtual thread (every socket claimed): looks without waiting, and in between parks until a socket's
     * ZMQ_FD signals or, if timed, the deadline passes. This thread is among each socket's waiters while it polls (the
     * only one, unless the socket is thread-safe: the claims keep any other out). Returns -1 if the reactor stops.
     */
    private int pollParking(int count, boolean timed, long deadline) {
        Thread self = Thread.currentThread();
        int watched = 0;
        boolean interrupted = false;
        try {
            for (; watched < count; watched++) {
                SocketCore c = sockets.get(watched).core;
                Socket.watchNotifications(c);
                c.addWaiter(self);
            }
            while (true) {
                if (closeRequested) {
                    throw new IllegalStateException("the poller was closed during the poll");
                }
                for (int i = 0; i < count; i++) {
                    SocketCore c = sockets.get(i).core;
                    if (c.closeRequested()) {
                        throw c.closedDuringWait("Polling socket " + i + " (" + c.type + ") of " + count);
                    }
                }
                int rc = LibZmq.poll(memory.callState, memory.items, count, 0);
                if (rc > 0) {
                    return rc;
                }
                if (rc < 0) {
                    throwUnlessInterrupted(count);
                    continue;
                }
                if (!Reactor.available()) {
                    return -1;
                }
                if (!Socket.parkUntil(this, timed, deadline)) {
                    return 0;
                }
                // As a blocking zmq_poll, this wait is not interruptible; the caller keeps the interrupt status.
                interrupted |= Thread.interrupted();
            }
        } finally {
            for (int i = 0; i < watched; i++) {
                sockets.get(i).core.removeWaiter(self);
            }
            if (interrupted) {
                self.interrupt();
            }
        }
    }

    /**
     * A poll of no socket, which never finds one ready: waits out the timeout here. zmq_poll would sleep for it in
     * microseconds that wrap (without a timeout, about 71 minutes, then 0). A close wakes it, as a parked poll.
     */
    private int pollNothing(long timeoutMs) {
        if (timeoutMs < 0) {
            throw new IllegalStateException("this poller has no sockets, so a poll without a timeout would never "
                    + "return: add a socket first, or give a timeout");
        }
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        boolean interrupted = false;
        try {
            while (Socket.parkUntil(this, true, deadline)) {
                if (closeRequested) {
                    throw new IllegalStateException("the poller was closed during the poll");
                }
                // As a blocking zmq_poll, this wait is not interruptible; the caller keeps the interrupt status.
                interrupted |= Thread.interrupted();
            }
            return 0;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** After zmq_poll failed: returns for EINTR (poll again), throws for anything else. */
    private void throwUnlessInterrupted(int count) {
        int errno = LibZmq.errno(memory.callState);
        if (errno != Errno.EINTR) {
            throw Socket.error(errno, "Polling " + count + " sockets");
        }
    }

    /**
     * zmq_poll on one socket for events (claim held): its item is built in the socket's option memory (free during a
     * wait) and errno captured in its call state. The number ready (0 or 1), or -1 with errno set.
     */
    static int pollOne(SocketCore c, int events, long timeoutMs) {
        MemorySegment item = c.options().asSlice(0, ITEM_SIZE);
        item.fill((byte) 0);
        item.set(ADDRESS, 0, c.handle);
        item.set(JAVA_SHORT, EVENTS_OFFSET, (short) events);
        return LibZmq.poll(c.callState(), item, 1, timeoutMs);
    }

    /** Whether the socket at index was readable at the last poll. */
    public boolean isReadable(int index) {
        return (revents(index) & READABLE) != 0;
    }

    /** Whether the socket at index was writable at the last poll. */
    public boolean isWritable(int index) {
        return (revents(index) & WRITABLE) != 0;
    }

    private int revents(int index) {
        if (user == CLOSED) {
            throw new IllegalStateException("the poller is closed");
        }
        java.util.Objects.checkIndex(index, sockets.size());
        return revents[index];
    }

    /** Claims the poller for the calling thread; throws when it is closed or another thread is inside a call. */
    private void enter() {
        if (!USER.compareAndSet(this, null, Thread.currentThread())) {
            if (user == CLOSED || closeRequested) {
                throw new IllegalStateException("the poller is closed");
            }
            throw new IllegalStateException("this poller is in use by another thread: use a poller from one thread at a "
                    + "time (each thread its own poller)");
        }
        if (closeRequested) { // asked for as a call ended, before that call's close could take the claim
            exit(); // carries it out
            throw new IllegalStateException("the poller is closed");
        }
    }

    /** Ends the call begun by {@link #enter}; carries out a close asked for meanwhile. */
    private void exit() {
        assert user == Thread.currentThread() : "exit() by a thread that did not enter";
        USER.setVolatile(this, null);
        if (closeRequested) {
            tryClose();
        }
    }

    /**
     * Frees the poll items (the sockets stay open). Idempotent, any thread: during another thread's poll it takes
     * effect as that poll returns; a poll parked on a virtual thread, or a poll of no socket, is woken and throws
     * {@link IllegalStateException}.
     */
    @Override
    public void close() {
        closeRequested = true;
        tryClose();
        if (user instanceof Thread polling) { // read after closeRequested was written: see the class's invariant
            LockSupport.unpark(polling);
        }
    }

    private void tryClose() {
        if (USER.compareAndSet(this, null, CLOSED)) {
            cleanable.clean();
        }
    }
}
