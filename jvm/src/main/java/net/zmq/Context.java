package net.zmq;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.zmq.internal.Errno;
import net.zmq.internal.LibZmq;

/**
 * A libzmq context: the container of sockets and I/O threads. Create one per process, share it between threads (it
 * is thread-safe) and close it last.
 *
 * <p>{@link #close()} never hangs on open sockets: it closes every socket no thread is calling (a socket inside a
 * call is closed by that call as it returns, which the shutdown makes it do at once with
 * {@link ContextTerminatedException}), shuts libzmq's context down and waits for its termination at most
 * {@link #TERMINATION_WAIT}, then leaves it to a background thread. Sockets get a default linger of one second,
 * so unsent messages delay termination by at most that.
 */
public final class Context implements AutoCloseable {
    /** The longest {@link #close()} waits for libzmq's context to terminate. */
    public static final Duration TERMINATION_WAIT = Duration.ofSeconds(10);
    static final Cleaner CLEANER = Cleaner.create();

    private static final int ZMQ_IO_THREADS = 1;
    private static final int ZMQ_MAX_SOCKETS = 2;

    final MemorySegment handle;
    /** The open sockets' states (not the Socket objects, so an unreachable Socket can still be cleaned). */
    final Set<SocketCore> sockets = ConcurrentHashMap.newKeySet();
    private final Terminator terminator;
    private final Cleaner.Cleanable cleanable;
    private volatile boolean closed;
    /** Set by {@link #shutdown()}: from then on no ZapAuthenticator starts (its handler could answer nothing). */
    private volatile boolean shutDown;
    volatile int defaultLingerMs = 1000;
    /** The ZAP endpoint's handler, from the first ZapAuthenticator on (guarded by this). */
    private ZapHandler zapHandler;

    /** A context with libzmq's defaults (one I/O thread, 1023 sockets). */
    public Context() {
        MemorySegment state = CallScratch.threadCallState();
        handle = LibZmq.ctxNew(state);
        if (handle.equals(MemorySegment.NULL)) {
            throw new ZmqException(LibZmq.errno(state), "Creating a context (zmq_ctx_new)");
        }
        terminator = new Terminator(handle, sockets);
        cleanable = CLEANER.register(this, terminator);
    }

    /**
     * A context with the given number of I/O threads and room for maxSockets sockets.
     *
     * @throws IllegalArgumentException ioThreads is negative or maxSockets is not positive
     */
    public Context(int ioThreads, int maxSockets) {
        this();
        if (ioThreads < 0 || maxSockets <= 0) {
            close();
            throw new IllegalArgumentException("ioThreads must be >= 0 and maxSockets > 0 (got " + ioThreads + ", " + maxSockets + ")");
        }
        try {
            set(ZMQ_IO_THREADS, ioThreads, "ZMQ_IO_THREADS");
            set(ZMQ_MAX_SOCKETS, maxSockets, "ZMQ_MAX_SOCKETS");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void set(int option, int value, String name) {
        MemorySegment state = CallScratch.threadCallState();
        if (LibZmq.ctxSet(state, handle, option, value) != 0) {
            throw new ZmqException(LibZmq.errno(state), "Setting " + name + " to " + value + " (zmq_ctx_set)");
        }
    }

    /** The loaded libzmq's version as "major.minor.patch". */
    public static String version() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment parts = arena.allocate(ValueLayout.JAVA_INT, 3);
            LibZmq.version(parts, parts.asSlice(4), parts.asSlice(8));
            return parts.getAtIndex(ValueLayout.JAVA_INT, 0) + "." + parts.getAtIndex(ValueLayout.JAVA_INT, 1) + "."
                    + parts.getAtIndex(ValueLayout.JAVA_INT, 2);
        }
    }

    /** Whether the loaded libzmq has a capability: "curve", "draft", "ipc", … (zmq_has). */
    public static boolean has(String capability) {
        try (Arena arena = Arena.ofConfined()) {
            return LibZmq.has(arena.allocateFrom(capability));
        }
    }

    /** Creates a socket of the given type in this context; same as {@code new Socket(this, type)}. */
    public Socket socket(SocketType type) {
        return new Socket(this, type);
    }

    /**
     * The linger new sockets get (one second unless changed).
     *
     * @throws IllegalArgumentException the duration is negative
     */
    public void setDefaultLinger(Duration linger) {
        if (linger.isNegative()) {
            throw new IllegalArgumentException("the default linger must not be negative (got " + linger + ")");
        }
        defaultLingerMs = Timeouts.fitsIntMillis(linger) ? (int) Timeouts.millisRoundedUp(linger) : Integer.MAX_VALUE; // at most libzmq's
    }

    /** The linger new sockets get. */
    public Duration defaultLinger() {
        return Duration.ofMillis(defaultLingerMs);
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Creates a native socket and registers its state, atomically with respect to the close: a socket is either made
     * before the close looks at the sockets (and closed by it) or refused.
     *
     * @throws IllegalStateException the context is closed
     * @throws ZmqException          libzmq refused
     */
    SocketCore openSocket(SocketType type) {
        synchronized (terminator) {
            if (terminator.terminating) {
                throw new IllegalStateException("the context is closed: create sockets before closing their context");
            }
            MemorySegment state = CallScratch.threadCallState();
            MemorySegment socket = LibZmq.socket(state, handle, type.value);
            if (socket.equals(MemorySegment.NULL)) {
                int errno = LibZmq.errno(state);
                if (errno == Errno.ETERM) {
                    throw new ContextTerminatedException("Creating a " + type + " socket (zmq_socket)");
                }
                throw new ZmqException(errno, "Creating a " + type + " socket (zmq_socket)"
                        + (type.isDraft() ? "; draft socket types need a libzmq built with the draft API (the bundled one is)" : ""));
            }
            SocketCore core = new SocketCore(socket, type, sockets);
            sockets.add(core);
            return core;
        }
    }

    /** The context's ZAP handler, bound on first use (see {@link ZapAuthenticator}). */
    synchronized ZapHandler zapHandler() {
        if (closed) {
            throw new IllegalStateException("the context is closed: start its ZapAuthenticator before closing it");
        }
        if (shutDown) { // the handler's thread ends, or would end at once, with ETERM
            throw new IllegalStateException("the context was shut down, so no ZAP handler can answer for it: start its "
                    + "ZapAuthenticator before the shutdown");
        }
        if (zapHandler == null) {
            zapHandler = new ZapHandler(this);
        }
        return zapHandler;
    }

    /**
     * Blocking calls on this context's sockets throw {@link ContextTerminatedException} from now on; the sockets
     * must still be closed. Idempotent.
     */
    public void shutdown() {
        shutDown = true;
        synchronized (terminator) {
            if (!terminator.terminating) { // else the close has shut it down, and may have terminated it
                LibZmq.ctxShutdown(handle);
            }
        }
    }

    /**
     * Closes the sockets no thread is calling, shuts the context down and waits at most {@link #TERMINATION_WAIT}
     * for libzmq to terminate it (see the class comment). Idempotent: a close during another thread's close waits
     * for the same termination.
     */
    @Override
    public void close() {
        closed = true;
        cleanable.clean(); // runs the terminator once, whoever calls it first
        terminator.awaitTermination();
    }

    /** Closes the sockets, shuts down and terminates on a background thread (zmq_ctx_term returns once all sockets are closed). */
    private static final class Terminator implements Runnable {
        private final MemorySegment handle;
        private final Set<SocketCore> sockets;
        private final CountDownLatch terminated = new CountDownLatch(1);
        /** Set once, under this object's lock, as the close begins: from then on no socket is made (openSocket). */
        boolean terminating;
        /** When closes stop waiting for the termination ({@link System#nanoTime}; 0 until the close begins). */
        private volatile long waitEnds;

        Terminator(MemorySegment handle, Set<SocketCore> sockets) {
            this.handle = handle;
            this.sockets = sockets;
        }

        @Override
        public void run() {
            waitEnds = System.nanoTime() + TERMINATION_WAIT.toNanos();
            synchronized (this) {
                terminating = true;
            }
            for (SocketCore socket : sockets) {
                socket.requestCloseByContext();
            }
            LibZmq.ctxShutdown(handle);
            Thread.ofPlatform().daemon().name("net-zmq-context-term").start(() -> {
                // zmq_ctx_term may return EINTR; it then must be called again.
                MemorySegment state = CallScratch.threadCallState();
                while (LibZmq.ctxTerm(state, handle) != 0 && LibZmq.errno(state) == Errno.EINTR) {
                    Thread.onSpinWait();
                }
                terminated.countDown();
            });
        }

        /**
         * Waits for the termination until {@link #TERMINATION_WAIT} after the close began: a close after that returns at
         * once. (A close whose call finds the terminator just starting on another thread waits that long from now.)
         */
        void awaitTermination() {
            long ends = waitEnds;
            long left = ends == 0 ? TERMINATION_WAIT.toNanos() : ends - System.nanoTime();
            try {
                terminated.await(Math.max(0, left), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
