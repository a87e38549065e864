package net.zmq;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import net.zmq.internal.Errno;
import net.zmq.internal.LibZmq;
import net.zmq.internal.Native;

/**
 * One frame in libzmq's own representation (a zmq_msg_t in native memory): received into without a copy into Java,
 * sent without a copy out of it, reusable for any number of frames. Sending it hands its content to libzmq and
 * leaves it empty. Close it; one that becomes unreachable unclosed is released by a Cleaner.
 *
 * <p>Use a message from one thread at a time. Unlike a socket's, a message's calls are not checked against another
 * thread's: closing or reusing a message while another thread sends or receives it, or reading a {@link #data()}
 * segment after the message was sent, closed or received into again, uses freed native memory and can crash the JVM.
 */
public final class Message implements AutoCloseable {
    /** Runs when libzmq no longer needs a zero-copy message's data, on whichever thread drops its last reference:
     * a libzmq I/O or reaper thread, the thread that closes, sends or re-receives into the message, the Cleaner's
     * thread for a message never closed, the thread closing its context, or any thread whose call on a socket makes
     * libzmq process that socket's commands (a send, a receive, a poll, an option read) as a pipe still holding the
     * frame is torn down. It must be quick and must not throw (an exception is reported to the thread's
     * uncaught-exception handler and otherwise ignored). */
    @FunctionalInterface
    public interface FreeCallback {
        void free(MemorySegment data);
    }

    private final MemorySegment msg;
    private final Cleaner.Cleanable cleanable;
    private boolean closed;

    /** Closes and frees the zmq_msg_t; the Cleaner's action (it must not refer to the Message). */
    private record Release(long address) implements Runnable {
        @Override
        public void run() {
            MemorySegment msg = MemorySegment.ofAddress(address).reinterpret(LibZmq.MSG_SIZE);
            LibZmq.msgClose(msg);
            Native.free(msg);
        }
    }

    private Message(MemorySegment msg) {
        this.msg = msg;
        this.cleanable = Context.CLEANER.register(this, new Release(msg.address()));
    }

    private static MemorySegment allocate() {
        return Native.malloc(LibZmq.MSG_SIZE);
    }

    /** An empty message, to receive into. */
    public Message() {
        this(initEmpty());
    }

    private static MemorySegment initEmpty() {
        MemorySegment msg = allocate();
        LibZmq.msgInit(msg);
        return msg;
    }

    /**
     * A message of size bytes (uninitialised content: fill {@link #data()}).
     *
     * @throws IllegalArgumentException size is negative
     */
    public Message(int size) {
        this(initSized(size));
    }

    private static MemorySegment initSized(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("a message's size must not be negative (got " + size + ")");
        }
        MemorySegment msg = allocate();
        if (LibZmq.msgInitSize(msg, size) != 0) {
            Native.free(msg);
            throw new ZmqException(Errno.ENOMEM, "Creating a message of " + size + " bytes (zmq_msg_init_size)");
        }
        return msg;
    }

    /** A message holding a copy of data. */
    public Message(byte[] data) {
        this(initSized(data.length));
        MemorySegment.copy(data, 0, data(), JAVA_BYTE, 0, data.length);
    }

    /** A message holding a copy of text in UTF-8. */
    public Message(String text) {
        this(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A zero-copy message over native memory: libzmq sends data in place and calls onFree once it no longer needs
     * it (then the memory may be freed or reused). data must stay valid and unchanged until then.
     *
     * @throws IllegalArgumentException data is not native memory
     */
    public Message(MemorySegment data, FreeCallback onFree) {
        this(initZeroCopy(data, onFree));
    }

    private static MemorySegment initZeroCopy(MemorySegment data, FreeCallback onFree) {
        Objects.requireNonNull(onFree, "onFree");
        if (!data.isNative()) {
            throw new IllegalArgumentException("zero-copy needs native memory (e.g. Arena.allocate); heap memory can move");
        }
        MemorySegment msg = allocate();
        int slot = ZeroCopy.register(onFree, data);
        MemorySegment state = CallScratch.threadCallState();
        if (LibZmq.msgInitData(state, msg, data, data.byteSize(), ZeroCopy.FREE_FUNCTION, MemorySegment.ofAddress(slot)) != 0) {
            int errno = LibZmq.errno(state);
            ZeroCopy.unregister(slot);
            Native.free(msg);
            throw new ZmqException(errno, "Creating a zero-copy message (zmq_msg_init_data)");
        }
        return msg;
    }

    /**
     * The zmq_msg_t, checked open. A method that passes it to libzmq ends with {@code Reference.reachabilityFence(this)}
     * (as do the socket's calls that take a message): a message used as a temporary is otherwise unreachable once this
     * returned, and its Cleaner could free the zmq_msg_t while libzmq still reads it.
     */
    MemorySegment live() {
        if (closed) {
            throw new IllegalStateException("the message is closed; create a new one");
        }
        return msg;
    }

    /**
     * The content as a segment over libzmq's memory, valid until the message is sent, received into or closed. The
     * segment does not keep the message reachable: use it while the message is in use (in its try-with-resources
     * block), as an unreachable message is released by its Cleaner.
     */
    public MemorySegment data() {
        try {
            MemorySegment m = live();
            return LibZmq.msgData(m).reinterpret(LibZmq.msgSize(m));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The content's size in bytes.
     *
     * @throws IllegalStateException the content is larger than an int can count (2 GiB or more): read it through
     *                               {@link #data()}, whose byteSize() says its size
     */
    public int size() {
        try {
            long size = LibZmq.msgSize(live());
            if (size > Integer.MAX_VALUE) {
                throw new IllegalStateException("the frame holds " + size + " bytes, more than an int counts: read it "
                        + "through data(), whose byteSize() is its size");
            }
            return (int) size;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Whether more frames of the same message follow this one (after a receive). */
    public boolean more() {
        try {
            return LibZmq.msgMore(live());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * A copy of the content.
     *
     * @throws IllegalStateException the content is larger than a Java array holds (see {@link #bytesOf})
     */
    public byte[] toByteArray() {
        try {
            return bytesOf(live());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The largest array the JVM makes (a few bytes under Integer.MAX_VALUE, for the array's header). */
    private static final int LARGEST_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * A copy of msg's content in a new array.
     *
     * @throws IllegalStateException the content is larger than a Java array holds: it can only be read as a
     *                               {@link Message} (its {@link #data()}); {@link SocketOption#MAXMSGSIZE} refuses
     *                               such frames from peers
     */
    static byte[] bytesOf(MemorySegment msg) {
        long size = LibZmq.msgSize(msg);
        if (size > LARGEST_ARRAY) {
            throw new IllegalStateException("a frame of " + size + " bytes does not fit in a Java array: receive it into "
                    + "a Message and read its data() segment, or set MAXMSGSIZE to refuse such frames");
        }
        byte[] bytes = new byte[(int) size];
        if (size > 0) {
            MemorySegment.copy(LibZmq.EVERYTHING, JAVA_BYTE, LibZmq.msgDataAddress(msg), bytes, 0, (int) size);
        }
        return bytes;
    }

    /**
     * Copies the content into dest (as much as fits).
     *
     * @return the content's full size (greater than dest.length when it did not fit; Integer.MAX_VALUE for a content
     *         of 2 GiB or more, as zmq_recv reports one)
     */
    public int copyTo(byte[] dest) {
        try {
            MemorySegment m = live();
            long size = LibZmq.msgSize(m);
            int n = (int) Math.min(size, dest.length);
            if (n > 0) {
                MemorySegment.copy(LibZmq.EVERYTHING, JAVA_BYTE, LibZmq.msgDataAddress(m), dest, 0, n);
            }
            return (int) Math.min(size, Integer.MAX_VALUE);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The content as UTF-8 text. */
    public String text() {
        return new String(toByteArray(), StandardCharsets.UTF_8);
    }

    /** Releases the content and makes the message empty. */
    public void rebuild() {
        try {
            MemorySegment m = live();
            LibZmq.msgClose(m);
            LibZmq.msgInit(m);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Releases the content and gives the message size uninitialised bytes. */
    public void rebuild(int size) {
        try {
            MemorySegment m = live();
            if (size < 0) {
                throw new IllegalArgumentException("a message's size must not be negative (got " + size + ")");
            }
            LibZmq.msgClose(m);
            if (LibZmq.msgInitSize(m, size) != 0) {
                LibZmq.msgInit(m);
                throw new ZmqException(Errno.ENOMEM, "Resizing a message to " + size + " bytes");
            }
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** SERVER/CLIENT (draft): the routing id of the peer a received message came from, or 0. */
    public int routingId() {
        try {
            return LibZmq.msgRoutingId(live());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** SERVER (draft): the peer to send this message to. */
    public void setRoutingId(int routingId) {
        try {
            MemorySegment state = CallScratch.threadCallState();
            if (LibZmq.msgSetRoutingId(state, live(), routingId) != 0) {
                throw new ZmqException(LibZmq.errno(state), "Setting routing id " + routingId + " (0 is not a valid id)");
            }
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** RADIO/DISH (draft): the message's group, or "" when none. */
    public String group() {
        try {
            MemorySegment text = LibZmq.msgGroup(live());
            return text.equals(MemorySegment.NULL) ? "" : text.reinterpret(256).getString(0);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** RADIO (draft): the group to publish this message to (at most 255 bytes). */
    public void setGroup(String group) {
        try {
            MemorySegment m = live();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = CallScratch.threadCallState();
                if (LibZmq.msgSetGroup(state, m, arena.allocateFrom(group)) != 0) {
                    throw new ZmqException(LibZmq.errno(state), "Setting group '" + group + "' (at most 255 bytes)");
                }
            }
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * A metadata property of a received message ("Socket-Type", "Routing-Id", "User-Id", "Peer-Address", or a
     * ZAP-supplied one).
     *
     * @return the value, or null when the message has no such property
     */
    public String property(String name) {
        try {
            MemorySegment m = live();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment value = LibZmq.msgGets(m, arena.allocateFrom(name));
                // A NUL-terminated string of any length (a peer's metadata property can be long).
                return value.equals(MemorySegment.NULL) ? null : value.reinterpret(Long.MAX_VALUE).getString(0);
            }
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Releases the content (a zero-copy message's callback runs now unless libzmq still holds it) and the message. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cleanable.clean();
        }
    }

    @Override
    public String toString() {
        return closed ? "Message[closed]" : "Message[" + size() + " bytes]";
    }
}
