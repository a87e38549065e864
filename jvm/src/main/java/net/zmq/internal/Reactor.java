package net.zmq.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * Wakes virtual threads waiting for a socket: one platform thread blocks in epoll_wait on every registered ZMQ_FD
 * (edge-triggered, as libzmq's notification descriptor is) and, when one signals, wakes the object registered for
 * it, which unparks its waiting thread. A virtual thread thus waits parked, its carrier free for other work, instead
 * of pinning the carrier inside a blocking libzmq call. Linux only (epoll); elsewhere {@link #available()} is false
 * and virtual threads make the plain blocking call.
 */
public final class Reactor {
    private Reactor() {
    }

    /** Something a signal on its descriptor wakes. */
    public interface Wakeable {
        void wake();
    }

    private static final boolean LINUX = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux");
    private static final int EPOLL_CTL_ADD = 1;
    private static final int EPOLL_CTL_DEL = 2;
    private static final int EPOLLIN = 1;
    private static final int EPOLLET = 1 << 31;
    /** struct epoll_event is packed (12 bytes) on x86-64 and 16 bytes, data at offset 8, elsewhere. */
    private static final boolean PACKED = System.getProperty("os.arch").matches("amd64|x86_64");
    private static final long EVENT_SIZE = PACKED ? 12 : 16;
    private static final long DATA_OFFSET = PACKED ? 4 : 8;
    private static final int BATCH = 256;
    /** One epoll_event (at most 16 bytes) and, after it, where epoll_ctl captures errno. */
    private static final long EVENT_AND_STATE_SIZE = 16 + LibZmq.CALL_STATE_SIZE;

    private static final class Holder {
        static final MethodHandle CREATE = libc("epoll_create1", FunctionDescriptor.of(JAVA_INT, JAVA_INT), LibZmq.CAPTURE_ERRNO);
        static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        static final MethodHandle CTL = libc("epoll_ctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS),
                LibZmq.CAPTURE_ERRNO);
        static final MethodHandle WAIT = libc("epoll_wait", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                LibZmq.CAPTURE_ERRNO);
        private static final Object LOCK = new Object();
        /** Indexed by descriptor; replaced (copy on write) when it grows. */
        static volatile Wakeable[] byFd = new Wakeable[1024];
        /**
         * The reactor's epoll descriptor, or -1 when it could not start (then {@link #failure} says why). Made last:
         * a failed start reads {@link #byFd}.
         */
        static final int EPOLL_FD = create();

        static MethodHandle libc(String name, FunctionDescriptor descriptor, Linker.Option... options) {
            return LibZmq.LINKER.downcallHandle(LibZmq.LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
        }

        /**
         * Starts the reactor on first use. If it cannot (no descriptor or thread left), it is stopped from the start:
         * virtual threads then wait in libzmq, as once it fails later, rather than every wait failing.
         */
        private static int create() {
            String why;
            int fd = -1;
            MemorySegment state = Native.malloc(LibZmq.CALL_STATE_SIZE);
            try {
                fd = (int) CREATE.invokeExact(state, 0x80000); // EPOLL_CLOEXEC
                if (fd >= 0) {
                    int epollFd = fd;
                    Thread.ofPlatform().daemon().name("net-zmq-reactor").start(() -> loop(epollFd));
                    return fd;
                }
                int errno = LibZmq.errno(state);
                why = "epoll_create1 failed with errno " + errno + " (" + LibZmq.strerror(errno) + ")";
            } catch (Throwable t) { // no thread could be started
                if (fd >= 0) {
                    close(fd);
                }
                why = "its thread could not start: " + t;
            } finally {
                Native.free(state);
            }
            fail(why);
            return -1;
        }

        private static void close(int fd) {
            try {
                int ignored = (int) CLOSE.invokeExact(fd);
            } catch (Throwable t) {
                throw LibZmq.rethrow(t);
            }
        }

        static void put(int fd, Wakeable target) {
            synchronized (LOCK) {
                Wakeable[] table = byFd;
                if (fd >= table.length) {
                    table = Arrays.copyOf(table, Math.max(fd + 1, table.length * 2));
                }
                table[fd] = target;
                byFd = table;
            }
        }

        /**
         * Ends the reactor: from now on {@link #available()} is false, so calls wait in libzmq as on a platform thread,
         * and every registered target is woken so that a thread already parked finds that out. The failure is
         * published before the targets are read, and a waiter makes itself known to its target before it checks
         * {@link Reactor#available()}: either the waiter sees the failure, or this sweep wakes it.
         */
        private static void fail(String why) {
            assert failure == null : "the reactor stopped twice";
            failure = why;
            for (Wakeable target : byFd) {
                if (target != null) {
                    target.wake();
                }
            }
            try {
                LOG.log(System.Logger.Level.ERROR, "The reactor that wakes virtual threads waiting for sockets stopped (" + why
                        + "): virtual threads now block in libzmq, pinning their carrier threads");
            } catch (RuntimeException | Error e) {
                // The logger failed too (with no descriptor left it cannot open its files): the waits go on regardless.
            }
        }

        private static void loop(int epollFd) {
            String why;
            try {
                why = waitAndWake(epollFd);
            } catch (Throwable t) {
                why = t.toString();
            }
            fail(why);
        }

        /** Returns only when epoll_wait fails with more than EINTR, saying how. */
        private static String waitAndWake(int epollFd) throws Throwable {
            MemorySegment events = Native.malloc(EVENT_SIZE * BATCH);
            MemorySegment state = Native.malloc(LibZmq.CALL_STATE_SIZE);
            while (true) {
                int count = (int) WAIT.invokeExact(state, epollFd, events, BATCH, -1);
                if (count < 0) {
                    int errno = LibZmq.errno(state);
                    if (errno == Errno.EINTR) {
                        continue;
                    }
                    return "epoll_wait failed with errno " + errno;
                }
                Wakeable[] table = byFd;
                for (int i = 0; i < count; i++) {
                    int fd = events.get(JAVA_INT, i * EVENT_SIZE + DATA_OFFSET);
                    Wakeable target = fd < table.length ? table[fd] : null;
                    if (target != null) {
                        target.wake();
                    }
                }
            }
        }
    }

    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());
    /**
     * Why the reactor stopped, or null while it runs. Set once, by the reactor's thread when epoll_wait fails with more
     * than EINTR or the thread meets an error, or as the reactor fails to start; never cleared.
     */
    private static volatile String failure;

    /**
     * Whether virtual threads can wait through the reactor: on Linux, until the reactor stops. A thread parked on it
     * checks this after every wake-up and, once false, makes the plain blocking call instead.
     */
    public static boolean available() {
        return LINUX && failure == null;
    }

    /**
     * Watches fd (edge-triggered, readable) and wakes target when it signals. Returns false, watching nothing, once the
     * reactor has stopped: the caller then sees {@link #available()} false and waits in libzmq.
     */
    public static boolean register(int fd, Wakeable target) {
        if (Holder.EPOLL_FD < 0 || failure != null) { // (the first use starts the reactor, which may fail)
            return false; // its descriptor may be closed, and the number reused by another epoll set
        }
        Holder.put(fd, target);
        MemorySegment event = Native.malloc(EVENT_AND_STATE_SIZE);
        try {
            event.set(JAVA_INT, 0, EPOLLIN | EPOLLET);
            event.set(JAVA_INT, DATA_OFFSET, fd);
            MemorySegment state = event.asSlice(16, LibZmq.CALL_STATE_SIZE);
            int rc = (int) Holder.CTL.invokeExact(state, Holder.EPOLL_FD, EPOLL_CTL_ADD, fd, event);
            if (rc != 0) {
                Holder.put(fd, null);
                if (failure != null) {
                    return false;
                }
                int errno = LibZmq.errno(state);
                throw new IllegalStateException("epoll_ctl(ADD) of socket descriptor " + fd + " failed with errno " + errno
                        + " (" + LibZmq.strerror(errno) + "): a virtual thread cannot wait for this socket");
            }
            return true;
        } catch (Throwable t) {
            throw LibZmq.rethrow(t);
        } finally {
            Native.free(event);
        }
    }

    /** Stops watching fd; called before the socket owning it is closed (the number may then be reused). */
    public static void unregister(int fd) {
        Holder.put(fd, null);
        if (Holder.EPOLL_FD < 0 || failure != null) {
            return; // nothing to remove it from
        }
        MemorySegment state = Native.malloc(LibZmq.CALL_STATE_SIZE);
        try {
            int ignored = (int) Holder.CTL.invokeExact(state, Holder.EPOLL_FD, EPOLL_CTL_DEL, fd, MemorySegment.NULL);
        } catch (Throwable t) {
            throw LibZmq.rethrow(t);
        } finally {
            Native.free(state);
        }
    }
}
