package net.zmq;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import net.zmq.internal.Errno;
import net.zmq.internal.LibZmq;
import net.zmq.internal.Reactor;

/**
 * A libzmq socket. Use it from one thread at a time: a call made while another thread is inside a call on the same
 * socket throws {@link IllegalStateException} (never a native crash). The types libzmq makes thread-safe (SERVER,
 * CLIENT, RADIO, DISH, SCATTER, GATHER, PEER, CHANNEL) take calls from several threads at once. Sends return
 * {@code false} and receives return -1, {@code false} or {@code null} when libzmq says "try again" (EAGAIN:
 * {@link SendFlags#DONT_WAIT}, {@link RecvFlags#DONT_WAIT} or an expired {@link SocketOption#RCVTIMEO}/{@link
 * SocketOption#SNDTIMEO}); they never throw for it. Interrupted system calls (EINTR) are retried. After
 * {@link Context#shutdown()} calls throw {@link ContextTerminatedException}; once the context is closed the socket
 * is closed too, and calls throw {@link IllegalStateException}.
 *
 * <p>On a virtual thread, a blocking send or receive does not block in libzmq (which would pin the carrier thread):
 * it parks until the socket's notification descriptor signals, then tries again.
 *
 * <p>Close it ({@code try}-with-resources); a socket that becomes unreachable unclosed is closed by a Cleaner.
 */
public final class Socket implements AutoCloseable {
    private static final int ZMQ_DONTWAIT = 1;
    private static final int POLLIN = 1;
    private static final int POLLOUT = 2;

    final SocketCore core;
    private final Context context;
    private final Cleaner.Cleanable cleanable;

    /**
     * Creates a socket of the given type in context.
     *
     * @throws IllegalStateException the context is closed
     * @throws ZmqException          libzmq refused (too many sockets: EMFILE; a draft type without the draft API: EINVAL)
     */
    public Socket(Context context, SocketType type) {
        this(context, type, true);
    }

    /**
     * A socket in context; one of the binding's own threads (the ZAP handler's) passes keepsContext false, so that
     * the thread does not keep the context reachable and its Cleaner can still run ({@link #context()} is then null).
     */
    Socket(Context context, SocketType type, boolean keepsContext) {
        this.context = keepsContext ? context : null;
        this.core = context.openSocket(type);
        cleanable = Context.CLEANER.register(this, core);
        setOption(SocketOption.LINGER, Duration.ofMillis(context.defaultLingerMs));
    }

    /** This socket's type. */
    public SocketType type() {
        return core.type;
    }

    /** The context this socket belongs to. */
    public Context context() {
        return context;
    }

    /** Whether the socket is closed (by {@link #close()}, its context's close, or the Cleaner). */
    public boolean isClosed() {
        return core.isClosed();
    }

    /**
     * Closes the socket: queued messages are sent for at most its {@link SocketOption#LINGER}. When another thread is
     * inside a call, the socket is closed as that call returns; a call parked on a virtual thread (a blocking send,
     * receive or poll) is woken and throws {@link IllegalStateException}, while one blocked inside libzmq on a platform
     * thread returns as it would have. Idempotent, any thread.
     */
    @Override
    public void close() {
        core.requestClose();
        cleanable.clean();
    }

    // ---- endpoints

    /** Accepts connections on endpoint ("tcp://127.0.0.1:*", "inproc://name", …). @throws ZmqException on failure */
    public void bind(String endpoint) {
        endpointCall(0, "Binding", endpoint);
    }

    /**
     * Connects to endpoint (in the background: the peer need not be up yet).
     *
     * @throws ZmqException          on failure
     * @throws IllegalStateException a ROUTER or STREAM whose {@link SocketOption#CONNECT_ROUTING_ID} a peer of the
     *                               socket has already (libzmq would abort the process)
     */
    public void connect(String endpoint) {
        endpointCall(1, "Connecting to", endpoint);
    }

    /** Stops accepting on endpoint (as {@link #lastEndpoint()} gave it for wildcard binds). */
    public void unbind(String endpoint) {
        endpointCall(2, "Unbinding", endpoint);
    }

    /** Disconnects from endpoint. */
    public void disconnect(String endpoint) {
        endpointCall(3, "Disconnecting from", endpoint);
    }

    /** DISH (draft): receives the messages RADIO sockets send to group. */
    public void join(String group) {
        endpointCall(4, "Joining group", group);
    }

    /** DISH (draft): stops receiving group. */
    public void leave(String group) {
        endpointCall(5, "Leaving group", group);
    }

    private void endpointCall(int which, String what, String text) {
        Objects.requireNonNull(text, "endpoint");
        SocketCore c = core;
        c.begin();
        try (Arena arena = Arena.ofConfined()) {
            byte[] connectId = which == 1 && c.pendingConnectId != null && connectTakesPendingId(c, text) ? c.pendingConnectId : null;
            if (connectId != null) {
                refuseTakenConnectId(c, connectId, arena);
            }
            MemorySegment state = c.callState();
            if (LibZmq.endpointCall(state, which, c.handle, arena.allocateFrom(text)) != 0) {
                throw error(LibZmq.errno(state), what + " " + text);
            }
            if (which <= 1) { // bind, connect
                c.boundOrConnected = true;
            }
            if (connectId != null) { // this connect's pipe took it
                c.pendingConnectId = null;
                if (c.connectIds == null) {
                    c.connectIds = new java.util.HashSet<>();
                }
                c.connectIds.add(ByteBuffer.wrap(connectId));
            }
        } finally {
            c.end();
        }
    }

    /**
     * Whether this connect gives its pipe the pending CONNECT_ROUTING_ID (claim held): libzmq makes the pipe at the
     * connect for inproc, and for the other transports unless IMMEDIATE is set; then the pipe comes with the connection,
     * as a peer's, and the id stays pending.
     */
    private static boolean connectTakesPendingId(SocketCore c, String endpoint) {
        return endpoint.startsWith("inproc://") || getIntOption(c, SocketOption.IMMEDIATE) == 0;
    }

    /**
     * Before a ROUTER's or STREAM's connect that gives its pipe a CONNECT_ROUTING_ID (claim held): libzmq asserts that no
     * pipe has that routing id yet, aborting the process. On a ROUTER with the draft API, libzmq says whether a peer has
     * the id (after ZMQ_EVENTS has made it take in the peers that connected meanwhile: a peer still connecting in at
     * the very moment of the connect can slip through); otherwise the ids this socket's connects gave are refused.
     */
    private static void refuseTakenConnectId(SocketCore c, byte[] id, Arena arena) {
        Boolean peer = null;
        if (c.type == SocketType.ROUTER) {
            eventsWhile(c, "Connecting");
            peer = LibZmq.routerHasPeer(c.handle, arena.allocateFrom(JAVA_BYTE, id));
        }
        boolean taken = peer != null ? peer : c.connectIds != null && c.connectIds.contains(ByteBuffer.wrap(id));
        if (taken) {
            throw new IllegalStateException("routing id " + HexFormat.of().formatHex(id) + " (CONNECT_ROUTING_ID) is already "
                    + "a peer's on this " + c.type + " socket, and libzmq would abort the process on a second one: set "
                    + "another CONNECT_ROUTING_ID before this connect");
        }
    }

    /** The endpoint last bound or connected, with the port a wildcard bind chose. */
    public String lastEndpoint() {
        return getOption(SocketOption.LAST_ENDPOINT);
    }

    /** SUB: receive messages starting with prefix (empty: everything). */
    public void subscribe(String prefix) {
        setOption(SocketOption.SUBSCRIBE, prefix.getBytes(StandardCharsets.UTF_8));
    }

    /** SUB: undo {@link #subscribe}. */
    public void unsubscribe(String prefix) {
        setOption(SocketOption.UNSUBSCRIBE, prefix.getBytes(StandardCharsets.UTF_8));
    }

    // ---- send

    /** Sends data as one frame, waiting for room. @return true (false only when {@link SocketOption#SNDTIMEO} expired) */
    public boolean send(byte[] data) {
        return send(data, 0, data.length, SendFlags.NONE);
    }

    /** Sends data as one frame. @return false when the frame could not be queued now (EAGAIN) */
    public boolean send(byte[] data, SendFlags flags) {
        return send(data, 0, data.length, flags);
    }

    /** Sends data as a frame with more to follow. @return false on EAGAIN */
    public boolean sendMore(byte[] data) {
        return send(data, 0, data.length, SendFlags.SEND_MORE);
    }

    /** Sends text (UTF-8) as one frame. @return false on EAGAIN */
    public boolean send(String text) {
        return send(text.getBytes(StandardCharsets.UTF_8), SendFlags.NONE);
    }

    /** Sends text (UTF-8) as one frame. @return false on EAGAIN */
    public boolean send(String text, SendFlags flags) {
        return send(text.getBytes(StandardCharsets.UTF_8), flags);
    }

    /**
     * Sends {@code data[offset, offset + length)} as one frame (libzmq copies it).
     *
     * @return false when the frame could not be queued now (EAGAIN)
     * @throws IndexOutOfBoundsException the range is not inside data
     * @throws ZmqException              libzmq refused (e.g. EFSM: a REQ socket sending twice without a reply)
     */
    public boolean send(byte[] data, int offset, int length, SendFlags flags) {
        Objects.checkFromIndexSize(offset, length, data.length);
        SocketCore c = core;
        c.begin();
        try {
            return sendArray(c, data, offset, length, flags.value);
        } finally {
            c.end();
        }
    }

    /**
     * Sends an array's range as one frame, with the claim held. While critical calls are allowed, a frame of at most
     * {@link #CRITICAL_COPY_MAX} bytes that starts the array is first sent straight from it by one critical,
     * non-blocking zmq_send ({@link LibZmq#sendHeapCritical} on the array's {@link SocketCore#arraySegment}). A frame
     * that try did not queue (no room now, an interruption, or an error that its capturing retry reports) is built in
     * native memory (as zmq_send builds it, the array copied straight in) and sent through {@link #afterCriticalTry};
     * any other frame, or any once critical calls are off, through {@link #transfer}. Both can wait. A range further
     * into the array is not sent straight from it: that needs a segment sliced from the array's, a new object per
     * send that the JIT does not remove, which costs more than the copy into native memory.
     */
    private boolean sendArray(SocketCore c, byte[] data, int offset, int length, int flags) {
        boolean critical = LibZmq.criticalSendRecv();
        boolean triedCritical = critical && offset == 0 && length <= CRITICAL_COPY_MAX;
        if (triedCritical) {
            if (LibZmq.sendHeapCritical(c.handle, c.arraySegment(data), length, flags | ZMQ_DONTWAIT) >= 0) {
                return true;
            }
        } else if (!critical) {
            c.forgetSentArrays();
        }
        MemorySegment msg = c.sendMessage();
        if (LibZmq.msgInitSize(msg, length) != 0) {
            throw new ZmqException(Errno.ENOMEM, "Creating a frame of " + length + " bytes");
        }
        MemorySegment.copy(data, offset, LibZmq.EVERYTHING, JAVA_BYTE, LibZmq.msgDataAddress(msg), length);
        boolean sent = false;
        try {
            sent = (triedCritical ? afterCriticalTry(MSG_SEND, c, msg, 0, flags) : transfer(MSG_SEND, c, msg, 0, flags)) >= 0;
            return sent;
        } finally {
            if (!sent) {
                LibZmq.msgClose(msg); // refused: the frame is ours to release
            }
        }
    }

    /**
     * Sends the bytes of a native memory segment as one frame (libzmq copies them).
     *
     * @return false on EAGAIN
     * @throws IllegalArgumentException data is heap memory (send the array instead)
     */
    public boolean send(MemorySegment data, SendFlags flags) {
        return claimedTransfer(SEND, requireNative(data, "send"), data.byteSize(), flags.value) >= 0;
    }

    /**
     * Sends message; on success libzmq owns its content and the message is left empty (reusable).
     *
     * @return false when it could not be queued now (EAGAIN); the message keeps its content
     */
    public boolean send(Message message, SendFlags flags) {
        try {
            return claimedTransfer(MSG_SEND, message.live(), 0, flags.value) >= 0;
        } finally {
            Reference.reachabilityFence(message); // see Message.live()
        }
    }

    /** Sends every frame of message (SEND_MORE on all but the last). @return false when the first frame met EAGAIN */
    public boolean sendMultipart(MultipartMessage message) {
        return sendMultipart(message, SendFlags.NONE);
    }

    /**
     * Sends every frame of message. With {@link SendFlags#DONT_WAIT} only the first frame can meet EAGAIN (then
     * nothing was sent and this returns false): libzmq queues the rest of a message once its first frame is queued.
     *
     * @throws IllegalArgumentException the message has no frame
     */
    public boolean sendMultipart(MultipartMessage message, SendFlags flags) {
        int count = message.size();
        if (count == 0) {
            throw new IllegalArgumentException("a message needs at least one frame");
        }
        boolean dontWait = flags.dontWait();
        SocketCore c = core;
        c.begin(); // one claim for the whole message: no other thread's frames between its frames
        try {
            for (int i = 0; i < count; i++) {
                SendFlags f = i < count - 1 ? (dontWait ? SendFlags.DONT_WAIT_SEND_MORE : SendFlags.SEND_MORE)
                        : (dontWait ? SendFlags.DONT_WAIT : SendFlags.NONE);
                byte[] frame = message.get(i);
                if (!sendArray(c, frame, 0, frame.length, f.value)) {
                    if (i == 0) {
                        return false;
                    }
                    throw new IllegalStateException("frame " + i + " of a multipart message met EAGAIN after the first was queued");
                }
            }
            return true;
        } finally {
            c.end();
        }
    }

    // ---- receive

    /**
     * Receives one frame into buffer, waiting for it.
     *
     * @return the frame's full size, which is greater than buffer.length when the frame was truncated to fit (the
     *         rest is lost); -1 when {@link SocketOption#RCVTIMEO} expired
     */
    public int recv(byte[] buffer) {
        return recv(buffer, 0, buffer.length, RecvFlags.NONE);
    }

    /** As {@link #recv(byte[])}; with {@link RecvFlags#DONT_WAIT} returns -1 at once when no frame is queued. */
    public int recv(byte[] buffer, RecvFlags flags) {
        return recv(buffer, 0, buffer.length, flags);
    }

    /**
     * Receives one frame into {@code buffer[offset, offset + length)}.
     *
     * @return the frame's full size (greater than length when truncated: the first length bytes were kept), or -1
     *         when no frame came (EAGAIN)
     */
    public int recv(byte[] buffer, int offset, int length, RecvFlags flags) {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        SocketCore c = core;
        c.begin();
        try {
            // As zmq_recv does it, but copying straight into the array: receive the frame, copy what fits.
            MemorySegment msg = c.message();
            int size = transfer(MSG_RECV, c, msg, 0, flags.value);
            if (size > 0) {
                MemorySegment.copy(LibZmq.EVERYTHING, JAVA_BYTE, LibZmq.msgDataAddress(msg), buffer, offset, Math.min(size, length));
                c.copiedOut(size);
            }
            return size;
        } finally {
            c.endReceive();
        }
    }

    /**
     * Receives one frame into a native segment, filling at most its first {@code Integer.MAX_VALUE - 1} bytes.
     *
     * @return the frame's full size, greater than the bytes filled when truncated; {@link Integer#MAX_VALUE} for a frame
     *         of that many bytes or more, always truncated (receive such frames into a {@link Message}); or -1 (EAGAIN)
     */
    public int recv(MemorySegment buffer, RecvFlags flags) {
        // libzmq counts a frame's size in an int, at most INT_MAX: with room for INT_MAX bytes, a frame of INT_MAX and
        // one of 4 GiB would both fill it and return INT_MAX, the larger one silently cut.
        long room = Math.min(requireNative(buffer, "recv").byteSize(), Integer.MAX_VALUE - 1);
        return claimedTransfer(RECV, buffer, room, flags.value);
    }

    /** Receives one frame as a new array, waiting for it. @return the frame, or null when RCVTIMEO expired */
    public byte[] recvBytes() {
        return recvBytes(RecvFlags.NONE);
    }

    /** Receives one frame as a new array. @return the frame, or null when none came (EAGAIN) */
    public byte[] recvBytes(RecvFlags flags) {
        SocketCore c = core;
        c.begin();
        try {
            return recvBytesHeld(flags.value);
        } finally {
            c.endReceive();
        }
    }

    /** {@link #recvBytes(RecvFlags)} with the claim held (by this call, or by a proxy running on this thread). */
    byte[] recvBytesHeld(int flags) {
        SocketCore c = core;
        MemorySegment msg = c.message();
        int size = transfer(MSG_RECV, c, msg, 0, flags);
        if (size < 0) {
            return null;
        }
        try {
            return Message.bytesOf(msg);
        } finally {
            c.copiedOut(size); // also when the frame was too large for an array: not kept until the next receive
        }
    }

    /** Sends data as one frame with the claim held (by a proxy running on this thread). @return false on EAGAIN */
    boolean sendHeld(byte[] data, SendFlags flags) {
        return sendArray(core, data, 0, data.length, flags.value);
    }

    /** Receives one frame as UTF-8 text, waiting for it. @return the text, or null when RCVTIMEO expired */
    public String recvString() {
        return recvString(RecvFlags.NONE);
    }

    /** Receives one frame as UTF-8 text. @return the text, or null (EAGAIN) */
    public String recvString(RecvFlags flags) {
        byte[] frame = recvBytes(flags);
        return frame == null ? null : new String(frame, StandardCharsets.UTF_8);
    }

    /**
     * Receives one frame into message (its previous content is released).
     *
     * @return false when no frame came (EAGAIN)
     */
    public boolean recv(Message message, RecvFlags flags) {
        try {
            return claimedTransfer(MSG_RECV, message.live(), 0, flags.value) >= 0;
        } finally {
            Reference.reachabilityFence(message); // see Message.live()
        }
    }

    /** Whether the frame last received has more frames after it (ZMQ_RCVMORE). */
    public boolean hasMore() {
        return getOption(SocketOption.RCVMORE);
    }

    /** Receives every frame of the next message, waiting for it. @return the message, or null when RCVTIMEO expired */
    public MultipartMessage recvMultipart() {
        return recvMultipart(RecvFlags.NONE);
    }

    /**
     * Receives every frame of the next message. {@link RecvFlags#DONT_WAIT} applies to the first frame; the rest of a
     * message arrives with it.
     *
     * @return the message, or null when no message came (EAGAIN)
     * @throws IllegalStateException a frame of 2 GiB or more, which fits no array (the whole message is dropped;
     *                               receive such frames into a {@link Message})
     */
    public MultipartMessage recvMultipart(RecvFlags flags) {
        SocketCore c = core;
        c.begin();
        try {
            MemorySegment msg = c.message();
            if (transfer(MSG_RECV, c, msg, 0, flags.value) < 0) {
                return null;
            }
            MultipartMessage result = new MultipartMessage();
            try {
                result.add(Message.bytesOf(msg));
                while (LibZmq.msgMore(msg)) {
                    if (transfer(MSG_RECV, c, msg, 0, 0) < 0) {
                        throw new IllegalStateException("the rest of a multipart message did not arrive");
                    }
                    result.add(Message.bytesOf(msg));
                }
            } catch (RuntimeException | OutOfMemoryError e) {
                // A frame that fits no array (2 GiB or more, or more than the heap has room for): drop the rest of its
                // message too, so the next receive starts a message.
                try {
                    while (LibZmq.msgMore(msg) && transfer(MSG_RECV, c, msg, 0, ZMQ_DONTWAIT) >= 0) {
                        // libzmq queues a message's frames together: the rest is there already
                    }
                } catch (RuntimeException dropping) {
                    e.addSuppressed(dropping);
                }
                throw e;
            } finally {
                c.copiedOut(LibZmq.msgSize(msg));
            }
            return result;
        } finally {
            c.endReceive();
        }
    }

    private static final int SEND = 0;
    private static final int RECV = 1;
    private static final int MSG_SEND = 2;
    private static final int MSG_RECV = 3;
    /**
     * The most bytes a critical call copies (a frame sent from an array or a native segment, or a non-blocking receive
     * into a native segment of this size or less): the GC and every safepoint wait for the call, and libzmq copies the
     * bytes once, about a millisecond's work at this size or less. The JDK's own copies poll for a safepoint after
     * each such chunk. A larger transfer takes the ordinary call.
     */
    private static final int CRITICAL_COPY_MAX = 1 << 20;
    private static final String[] WHAT = {"Sending", "Receiving", "Sending a message", "Receiving a message"};

    /** {@link #transfer} inside a claim of its own. */
    private int claimedTransfer(int kind, MemorySegment data, long size, int flags) {
        SocketCore c = core;
        c.begin();
        try {
            return transfer(kind, c, data, size, flags);
        } finally {
            c.end();
        }
    }

    private static MemorySegment requireNative(MemorySegment segment, String call) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException(call + "(MemorySegment) needs a native segment; use " + call + "(byte[]) for arrays");
        }
        return segment;
    }

    /**
     * One libzmq call of the given kind in the given mode ({@link LibZmq#CALL_CRITICAL} and the others): zmq_send,
     * zmq_recv (data, size) or zmq_msg_send, zmq_msg_recv (data = the zmq_msg_t). The call state is looked up only
     * for a mode that captures (on a thread-safe socket it is the thread's).
     */
    private static int call(int kind, int mode, SocketCore c, MemorySegment data, long size, int flags) {
        MemorySegment h = c.handle;
        MemorySegment state = LibZmq.captures(mode) ? c.callState() : null;
        return switch (kind) {
            case SEND -> LibZmq.send(mode, state, h, data, size, flags);
            case RECV -> LibZmq.recv(mode, state, h, data, size, flags);
            case MSG_SEND -> LibZmq.msgSend(mode, state, data, h, flags);
            default -> LibZmq.msgRecv(mode, state, data, h, flags);
        };
    }

    /**
     * After a call of the given kind failed: the same call once more without waiting, capturing errno (the first
     * captured nothing: see LibZmq). Returns its result: the size when it succeeded this time (what failed, EAGAIN or
     * EINTR, has passed), else -1 with errno in {@link SocketCore#callState()}.
     */
    private static int retryCapturing(int kind, SocketCore c, MemorySegment data, long size, int flags) {
        return call(kind, LibZmq.CALL_CAPTURING, c, data, size, flags | ZMQ_DONTWAIT);
    }

    /**
     * Runs one send or receive of the given kind to its end, with the claim held: returns libzmq's result (the size),
     * or -1 for EAGAIN; retries EINTR; throws for anything else. A first try captures errno only where a failure is
     * ordinary or must be told apart at once (a receive that does not wait; a blocking call with a timeout); any other
     * failed try is made again without waiting through {@link #retryCapturing}, whose errno tells why (see LibZmq's
     * send and receive modes). While no zero-copy message exists, a send, and a receive the caller asked not to wait
     * for, that copies at most {@link #CRITICAL_COPY_MAX} bytes (a message's call copies none), is first tried
     * critical and non-blocking (no thread-state transition): a send almost always succeeds at
     * once. A blocking receive is not tried that way: when nothing is queued a non-blocking zmq_recv polls libzmq's
     * mailbox descriptor (a system call), which a receiver that keeps up with its sender would pay on almost every
     * frame. On a virtual thread a blocking call never blocks in libzmq: it tries non-blocking and parks until the
     * socket's descriptor signals.
     */
    private int transfer(int kind, SocketCore c, MemorySegment data, long size, int flags) {
        boolean dontWait = (flags & ZMQ_DONTWAIT) != 0;
        boolean sending = kind == SEND || kind == MSG_SEND;
        if ((sending || dontWait) && size <= CRITICAL_COPY_MAX && LibZmq.criticalSendRecv()) {
            int critical = sending ? LibZmq.CALL_CRITICAL : LibZmq.CALL_CRITICAL_CAPTURING;
            int rc = call(kind, critical, c, data, size, flags | ZMQ_DONTWAIT);
            return rc >= 0 ? rc : afterCriticalTry(kind, c, data, size, flags);
        }
        if (!dontWait && !sending && c.receiveTimeoutMs < 0 && !Thread.currentThread().isVirtual()) {
            // A blocking receive without a timeout on a platform thread waits in libzmq. Tried here, where the JIT
            // inlines it into the caller (transferWaiting is too large to be); a failure is made again there.
            int rc = call(kind, LibZmq.CALL_ORDINARY, c, data, size, flags);
            if (rc >= 0) {
                return rc;
            }
        }
        return transferWaiting(kind, c, data, size, flags);
    }

    /**
     * {@link #transfer} after a critical, non-blocking try of this send or receive failed (for a send: a try that
     * captured nothing, of this call or of the same frame from its array): learns why, returns -1 for EAGAIN when the
     * caller does not wait, throws for an error, else goes on as the call asks.
     */
    private int afterCriticalTry(int kind, SocketCore c, MemorySegment data, long size, int flags) {
        boolean sending = kind == SEND || kind == MSG_SEND;
        int rc;
        if (sending && (rc = retryCapturing(kind, c, data, size, flags)) >= 0) {
            return rc;
        }
        int errno = LibZmq.errno(c.callState());
        if (errno == Errno.EAGAIN && (flags & ZMQ_DONTWAIT) != 0) {
            return -1;
        }
        if (errno != Errno.EAGAIN && errno != Errno.EINTR) {
            throw error(errno, WHAT[kind]);
        }
        return transferWaiting(kind, c, data, size, flags);
    }

    /** {@link #transfer} without a critical try: waits on a virtual thread's reactor or in libzmq, as the call asks. */
    private int transferWaiting(int kind, SocketCore c, MemorySegment data, long size, int flags) {
        boolean dontWait = (flags & ZMQ_DONTWAIT) != 0;
        boolean sending = kind == SEND || kind == MSG_SEND;
        int event = sending ? POLLOUT : POLLIN;
        int timeoutMs = sending ? c.sendTimeoutMs : c.receiveTimeoutMs;
        // The whole call's, across tries (0: none); taken only for a call that waits with a timeout.
        long deadline = !dontWait && timeoutMs > 0 ? System.nanoTime() + timeoutMs * 1_000_000L : 0;
        if (!dontWait && Thread.currentThread().isVirtual() && Reactor.available()) {
            int readyAtOnce = 0; // tries in a row refused although the socket read ready (see pauseAfterRefusal)
            long pause = 0;
            boolean interrupted = false; // cleared for a pause, set again as the call ends
            try {
                do {
                    // Capturing at once: here a try fails before each park, and a second non-blocking try to learn why
                    // would cost libzmq another poll of its mailbox.
                    int rc = call(kind, LibZmq.CALL_CAPTURING, c, data, size, flags | ZMQ_DONTWAIT);
                    if (rc >= 0) {
                        return rc;
                    }
                    int waited = failedAgain(c, LibZmq.errno(c.callState()), WHAT[kind], event, timeoutMs, deadline);
                    if (waited == WAIT_TIMED_OUT) {
                        return -1;
                    }
                    if (waited != READY_AT_ONCE) {
                        readyAtOnce = 0;
                        pause = 0;
                    } else if (readyAtOnce++ > 0) { // the first can be room that came just after the try
                        if (deadline != 0 && System.nanoTime() - deadline >= 0) {
                            return -1;
                        }
                        interrupted |= Thread.interrupted();
                        pause = pauseAfterRefusal(pause, deadline);
                    }
                } while (Reactor.available());
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (deadline != 0) { // the reactor stopped: wait in libzmq for what is left of the timeout
                return waitOutTheTimeout(kind, c, data, size, flags, event, deadline);
            }
        }
        // A call that waits without a timeout never meets EAGAIN: when its retry says EAGAIN, it was interrupted. With
        // a timeout, only the call itself can tell its timeout (EAGAIN) from an interruption (EINTR), and a receive
        // that does not wait meets EAGAIN as often as not: those capture errno on the first try.
        int mode = dontWait ? (sending ? LibZmq.CALL_ORDINARY : LibZmq.CALL_CAPTURING)
                : (timeoutMs >= 0 ? LibZmq.CALL_CAPTURING : LibZmq.CALL_ORDINARY);
        while (true) {
            int rc = call(kind, mode, c, data, size, flags);
            if (rc >= 0 || mode == LibZmq.CALL_ORDINARY && (rc = retryCapturing(kind, c, data, size, flags)) >= 0) {
                return rc;
            }
            int errno = LibZmq.errno(c.callState());
            if (errno == Errno.EAGAIN) {
                if (dontWait || mode == LibZmq.CALL_CAPTURING) {
                    return -1;
                }
            } else if (errno != Errno.EINTR) {
                throw error(errno, WHAT[kind]);
            } else if (deadline != 0) {
                return waitOutTheTimeout(kind, c, data, size, flags, event, deadline);
            }
        }
    }

    /**
     * The rest of a call with a timeout, once its first wait ended early: interrupted by a signal (EINTR), or parked on
     * a reactor that stopped. Made again, libzmq's call would wait its whole timeout anew, so that under signals that
     * keep coming (a wall-clock profiler) it would never time out. Instead this waits in zmq_poll on the socket for what
     * is left of the timeout, then tries without waiting, until the call succeeds or the deadline passes (-1: EAGAIN).
     * A socket that reads ready but refuses the try is tried again after a pause ({@link #pauseAfterRefusal}).
     */
    private static int waitOutTheTimeout(int kind, SocketCore c, MemorySegment data, long size, int flags, int event, long deadline) {
        long pause = 0; // a SERVER's, PEER's or mandatory ROUTER's send can be refused while the socket reads writable
        boolean interrupted = false; // cleared for a pause, set again as the call ends
        try {
            while (true) {
                if (deadline - System.nanoTime() <= 0) {
                    return -1;
                }
                int ready = Poller.pollOne(c, event, Timeouts.left(deadline, 0));
                if (ready < 0 && LibZmq.errno(c.callState()) != Errno.EINTR) {
                    throw error(LibZmq.errno(c.callState()), WHAT[kind]);
                }
                int rc = call(kind, LibZmq.CALL_CAPTURING, c, data, size, flags | ZMQ_DONTWAIT);
                if (rc >= 0) {
                    return rc;
                }
                int errno = LibZmq.errno(c.callState());
                if (errno != Errno.EAGAIN && errno != Errno.EINTR) {
                    throw error(errno, WHAT[kind]);
                }
                if (ready > 0 && errno == Errno.EAGAIN) { // ready, yet refused: wait a little longer each time, not spin
                    interrupted |= Thread.interrupted();
                    pause = pauseAfterRefusal(pause, deadline);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The longest pause between tries of a call that its socket reports ready for but still refuses (5 ms). */
    private static final long MAX_PAUSE_NANOS = 5_000_000L;

    /**
     * Pauses before another try of a call that its socket reads ready for but refused (a SERVER's, PEER's or mandatory
     * ROUTER's send to one full peer while others have room), rather than spin; returns this pause, the previous one
     * doubled (from 0.1 ms, at most {@link #MAX_PAUSE_NANOS}), for the next. Never past deadline (0: none). A set
     * interrupt status would end the pause at once (and setting it again gives the thread a park permit): the caller
     * clears it before the pause and sets it again as its call ends.
     */
    private static long pauseAfterRefusal(long previous, long deadline) {
        long pause = Math.min(Math.max(2 * previous, 100_000L), MAX_PAUSE_NANOS);
        LockSupport.parkNanos(deadline == 0 ? pause : Math.min(pause, deadline - System.nanoTime()));
        return pause;
    }

    // ---- waiting on a virtual thread

    /** {@link #failedAgain}: the call's timeout passed (it reports EAGAIN). */
    private static final int WAIT_TIMED_OUT = -1;
    /** {@link #failedAgain}: try again, after a park (or an interruption, or with the reactor stopped). */
    private static final int TRY_AGAIN = 0;
    /** {@link #failedAgain}: try again; the socket read ready at once, without a park. */
    private static final int READY_AT_ONCE = 1;

    /**
     * After a non-blocking attempt made for a blocking call on a virtual thread failed with errno: throws unless it
     * is EAGAIN or EINTR; for EAGAIN parks until the socket can do what it waits for or the reactor stops (or, with a
     * timeout, the call's deadline passes: then {@link #WAIT_TIMED_OUT}, and the call reports EAGAIN). Otherwise
     * returns {@link #TRY_AGAIN}, or {@link #READY_AT_ONCE} when the socket read ready before any park.
     */
    private int failedAgain(SocketCore c, int errno, String what, int event, int timeoutMs, long deadline) {
        if (errno == Errno.EINTR) {
            return TRY_AGAIN;
        }
        if (errno != Errno.EAGAIN) {
            throw error(errno, what);
        }
        if (timeoutMs == 0) {
            return WAIT_TIMED_OUT;
        }
        watchNotifications(c);
        boolean interrupted = false;
        Thread self = Thread.currentThread();
        c.addWaiter(self);
        try {
            for (boolean parked = false; ; parked = true) {
                if (c.closeRequested()) {
                    throw c.closedDuringWait(what);
                }
                if ((eventsWhile(c, what) & event) != 0) {
                    return parked ? TRY_AGAIN : READY_AT_ONCE;
                }
                if (!Reactor.available()) {
                    return TRY_AGAIN;
                }
                if (!parkUntil(this, timeoutMs > 0, deadline)) {
                    return WAIT_TIMED_OUT;
                }
                // A blocking libzmq call is not interruptible; nor is this wait. Keep the status for the caller.
                interrupted |= Thread.interrupted();
            }
        } finally {
            c.removeWaiter(self);
            if (interrupted) {
                self.interrupt();
            }
        }
    }

    /**
     * Parks the calling thread until it is unparked (or spuriously woken), or, when timed, until deadline
     * ({@link System#nanoTime}). Returns false, without parking, once the deadline has passed.
     */
    static boolean parkUntil(Object blocker, boolean timed, long deadline) {
        if (!timed) {
            LockSupport.park(blocker);
            return true;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return false;
        }
        LockSupport.parkNanos(blocker, left);
        return true;
    }

    /**
     * ZMQ_EVENTS, read during the call what (e.g. "Receiving"): a shut-down context fails that call, as libzmq's would.
     * Reading it processes the socket's commands, which polls its mailbox descriptor: a signal then fails it with
     * EINTR, and it is read again.
     */
    private static int eventsWhile(SocketCore c, String what) {
        int id = SocketOption.EVENTS.id;
        MemorySegment options = c.options(); // the size at 0, the value at 8
        MemorySegment state = c.callState();
        while (true) {
            options.set(JAVA_LONG, 0, 4);
            if (LibZmq.getsockopt(c.criticalOption(id), state, c.handle, id, options.asSlice(8), options) == 0) {
                return options.get(JAVA_INT, 8);
            }
            int errno = LibZmq.errno(state);
            if (errno != Errno.EINTR) {
                throw error(errno, errno == Errno.ETERM ? what : what + " (reading EVENTS)");
            }
        }
    }

    /**
     * Has the reactor watch the socket's ZMQ_FD (once per socket; under c's lock, as threads may be inside a
     * thread-safe socket's calls at once) and unpark the threads waiting on it when it signals. The claim is held.
     * ZMQ_FD is edge-triggered: a waiter registers itself ({@link SocketCore#addWaiter}), then checks the socket's
     * state, then parks, so a signal after the check unparks it (or leaves the permit for its park). Between the check
     * and the park it also reads {@link Reactor#available()}: a reactor that stops wakes every registered target.
     */
    static void watchNotifications(SocketCore c) {
        synchronized (c) {
            if (c.notificationFd < 0) {
                int fd = c.threadSafe ? pollerNotificationFd(c) : getIntOption(c, SocketOption.FD);
                if (Reactor.register(fd, c::wakeWaiters)) {
                    c.notificationFd = fd; // only once watched: a failed registration is tried again by the next wait
                } // else the reactor has stopped, and the caller will wait in libzmq
            }
        }
    }

    /**
     * A thread-safe socket has no ZMQ_FD. A zmq_poller holding it has a descriptor that libzmq signals as the socket's
     * commands arrive, as ZMQ_FD does for the others; the socket keeps the poller until it is closed (claim held).
     */
    private static int pollerNotificationFd(SocketCore c) {
        String what = "Watching a thread-safe " + c.type + " socket for a virtual thread (zmq_poller_fd)";
        MemorySegment state = c.callState();
        MemorySegment cell = c.options();
        MemorySegment poller = c.notificationPoller; // made by an earlier wait whose registration failed
        if (poller.address() == 0) {
            poller = LibZmq.pollerNew(state);
            if (poller.address() == 0) {
                throw error(LibZmq.errno(state), what);
            }
            if (LibZmq.pollerAdd(state, poller, c.handle, (short) (POLLIN | POLLOUT)) != 0) {
                ZmqException e = error(LibZmq.errno(state), what);
                cell.set(ADDRESS, 0, poller);
                LibZmq.pollerDestroy(cell);
                throw e;
            }
            c.notificationPoller = poller; // the socket's close destroys it
        }
        if (LibZmq.pollerFd(state, poller, cell) != 0) {
            throw error(LibZmq.errno(state), what);
        }
        return cell.get(JAVA_INT, 0);
    }

    // ---- options

    /**
     * Sets an option. Security options (PLAIN_*, CURVE_*, ZAP_*) must be set before the first bind or connect: libzmq
     * applies them to each endpoint as it is bound or connected, so one set later would leave the endpoints already
     * there without it (a CURVE server's would accept plaintext peers).
     *
     * @throws UnsupportedOperationException the option is read-only
     * @throws IllegalArgumentException      the value is out of range
     * @throws IllegalStateException         a security option after a bind or connect, or on a STREAM socket (no handshake)
     * @throws ZmqException                  libzmq refused the value (EINVAL: wrong for this socket type or size)
     */
    public <T> void setOption(SocketOption<T> option, T value) {
        if (!option.writable) {
            throw new UnsupportedOperationException(option.name + " is read-only");
        }
        SocketCore c = core;
        Arena arena = null;
        c.begin();
        try {
            if (option.security && c.boundOrConnected) {
                throw new IllegalStateException(option.name + " set after this " + c.type + " socket was bound or "
                        + "connected would not apply to those endpoints (libzmq sets up their security as they are made), "
                        + "leaving them open: set security options before bind and connect, or use a new socket");
            }
            if (option.security && c.type == SocketType.STREAM) {
                throw new IllegalStateException(option.name + " on a STREAM socket would admit every peer: its connections "
                        + "carry raw bytes without ZeroMQ's handshake, so libzmq runs no security mechanism and asks no ZAP "
                        + "handler on them. Secure that traffic another way (TLS in front of it), or use a ZeroMQ socket type");
            }
            MemorySegment buffer = c.options().asSlice(8);
            long size;
            switch (option.kind) {
                case INT -> {
                    buffer.set(JAVA_INT, 0, (Integer) value);
                    size = 4;
                }
                case BOOL -> {
                    buffer.set(JAVA_INT, 0, ((Boolean) value) ? 1 : 0);
                    size = 4;
                }
                case LONG -> {
                    buffer.set(JAVA_LONG, 0, (Long) value);
                    size = 8;
                }
                case DURATION -> {
                    Duration d = (Duration) value;
                    boolean forever = d == null || d.isNegative();
                    if (forever && !option.takesForever()) {
                        throw new IllegalArgumentException(option.name + " takes 0 or more, not " + d + " (libzmq has no "
                                + "\"forever\" for it, and its 0 means none or its default)");
                    }
                    if (!forever && !Timeouts.fitsIntMillis(d)) {
                        throw new IllegalArgumentException(option.name + " must be at most " + Integer.MAX_VALUE
                                + " ms (got " + d + (option.takesForever() ? "; null or a negative duration gives libzmq's -1)" : ")"));
                    }
                    long ms = forever ? -1 : Timeouts.millisRoundedUp(d);
                    if (option == SocketOption.HEARTBEAT_TTL && ms <= HEARTBEAT_TTL_MAX + 99) {
                        // Kept in tenths of a second (at most 65,535): 150 ms would become 100, and 99 ms 0 (off).
                        ms = Math.min((ms + 99) / 100 * 100, HEARTBEAT_TTL_MAX);
                    }
                    buffer.set(JAVA_INT, 0, (int) ms);
                    size = 4;
                    if (option == SocketOption.RCVTIMEO) {
                        c.receiveTimeoutMs = (int) ms;
                    } else if (option == SocketOption.SNDTIMEO) {
                        c.sendTimeoutMs = (int) ms;
                    }
                }
                case BYTES, STRING, KEY -> {
                    byte[] bytes = option.kind == SocketOption.Kind.STRING
                            ? ((String) value).getBytes(StandardCharsets.UTF_8) : (byte[]) value;
                    if (option.kind == SocketOption.Kind.KEY) {
                        bytes = curveKey(option, bytes);
                    }
                    boolean anyLength = option == SocketOption.SUBSCRIBE || option == SocketOption.UNSUBSCRIBE;
                    if (bytes.length > 255 && !anyLength) {
                        throw new IllegalArgumentException(option.name + " takes at most 255 bytes (got " + bytes.length + ")");
                    }
                    if (bytes.length > buffer.byteSize()) { // a long topic: in memory of its own for this call
                        arena = Arena.ofConfined();
                        buffer = arena.allocate(bytes.length);
                    }
                    MemorySegment.copy(bytes, 0, buffer, JAVA_BYTE, 0, bytes.length);
                    size = bytes.length;
                }
                default -> throw new AssertionError(option.kind);
            }
            MemorySegment state = c.callState();
            if (LibZmq.setsockopt(c.criticalOption(option.id), state, c.handle, option.id, buffer, size) != 0) {
                throw error(LibZmq.errno(state), "Setting " + option.name + " on a " + c.type + " socket");
            }
            if (option == SocketOption.CONNECT_ROUTING_ID && (c.type == SocketType.ROUTER || c.type == SocketType.STREAM)) {
                c.pendingConnectId = buffer.asSlice(0, size).toArray(JAVA_BYTE);
            }
        } finally {
            c.end();
            if (arena != null) {
                arena.close();
            }
        }
    }

    /**
     * Reads an option.
     *
     * @throws UnsupportedOperationException the option is write-only
     */
    @SuppressWarnings("unchecked")
    public <T> T getOption(SocketOption<T> option) {
        if (!option.readable) {
            throw new UnsupportedOperationException(option.name + " is write-only");
        }
        SocketCore c = core;
        Arena arena = null;
        c.begin();
        try {
            MemorySegment options = c.options();
            MemorySegment sizeCell = options.asSlice(0, 8);
            MemorySegment buffer = options.asSlice(8);
            boolean variable = option.kind == SocketOption.Kind.BYTES || option.kind == SocketOption.Kind.STRING;
            long capacity = switch (option.kind) {
                case INT, BOOL, DURATION -> option == SocketOption.FD ? FD_SIZE : 4;
                case LONG -> 8;
                case BYTES, STRING -> 256;
                case KEY -> Curve.KEY_BYTES; // libzmq takes 32 (the key) or 41 (its text), nothing else
            };
            sizeCell.set(JAVA_LONG, 0, capacity);
            MemorySegment state = c.callState();
            int rc = LibZmq.getsockopt(c.criticalOption(option.id), state, c.handle, option.id, buffer, sizeCell);
            if (rc != 0 && variable && LibZmq.errno(state) == Errno.EINVAL) {
                // Longer than the option buffer (libzmq refuses a buffer too small with EINVAL): a LAST_ENDPOINT of a
                // long inproc name or host. Read again into memory of its own.
                arena = Arena.ofConfined();
                buffer = arena.allocate(LONG_OPTION_MAX);
                sizeCell.set(JAVA_LONG, 0, LONG_OPTION_MAX);
                rc = LibZmq.getsockopt(c.criticalOption(option.id), state, c.handle, option.id, buffer, sizeCell);
            }
            if (rc != 0) {
                throw error(LibZmq.errno(state), "Reading " + option.name + " of a " + c.type + " socket");
            }
            int size = (int) sizeCell.get(JAVA_LONG, 0);
            return (T) switch (option.kind) {
                case INT -> buffer.get(JAVA_INT, 0);
                case BOOL -> buffer.get(JAVA_INT, 0) != 0;
                case LONG -> buffer.get(JAVA_LONG, 0);
                case DURATION -> {
                    int ms = buffer.get(JAVA_INT, 0);
                    yield ms < 0 ? null : Duration.ofMillis(ms);
                }
                case BYTES, KEY -> buffer.asSlice(0, size).toArray(JAVA_BYTE);
                case STRING -> new String(buffer.asSlice(0, Math.max(0, size - 1)).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
            };
        } finally {
            c.end();
            if (arena != null) {
                arena.close();
            }
        }
    }

    /**
     * A CURVE key option's value as libzmq's 32 bytes: the key itself, or its 40 characters of Z85 text (with or without
     * a terminating NUL) decoded here. libzmq's own decoding stops at a NUL, keeping the rest of the previous key.
     */
    private static byte[] curveKey(SocketOption<?> option, byte[] value) {
        if (value.length == Curve.KEY_BYTES) {
            return value;
        }
        int text = value.length == 41 && value[40] == 0 ? 40 : value.length;
        if (text != 40) {
            throw new IllegalArgumentException(option.name + " takes a CURVE key: 32 bytes, or its 40 characters of Z85 text "
                    + "(got " + value.length + " bytes)");
        }
        return Z85.decode(new String(value, 0, text, StandardCharsets.ISO_8859_1));
    }

    /** The longest HEARTBEAT_TTL libzmq keeps, in milliseconds (65,535 tenths of a second); longer ones it refuses. */
    private static final long HEARTBEAT_TTL_MAX = 6_553_500;

    /** The longest text or bytes option value read (an endpoint with a long inproc name or host): 64 KiB. */
    private static final long LONG_OPTION_MAX = 64 << 10;

    /**
     * ZMQ_FD's size: an int on POSIX, a SOCKET on Windows, where libzmq refuses 4 bytes (EINVAL). The value is read as
     * an int at the same address: the SOCKET's low half (little-endian), which holds a socket handle's value.
     */
    private static final long FD_SIZE = System.getProperty("os.name").startsWith("Windows") ? 8 : 4;

    /** An int option (or a flag, as its int) read with the claim already held. */
    private static int getIntOption(SocketCore c, SocketOption<?> option) {
        MemorySegment options = c.options(); // the size at 0, the value at 8
        options.set(JAVA_LONG, 0, option == SocketOption.FD ? FD_SIZE : 4);
        MemorySegment state = c.callState();
        if (LibZmq.getsockopt(c.criticalOption(option.id), state, c.handle, option.id, options.asSlice(8), options) != 0) {
            throw error(LibZmq.errno(state), "Reading " + option.name);
        }
        return options.get(JAVA_INT, 8);
    }

    // ---- monitoring

    /**
     * Publishes this socket's events on a PAIR endpoint (inproc://…); {@link SocketMonitor} does this for you.
     *
     * @param events a mask of {@link SocketEvent} bits; 0 stops monitoring (endpoint null)
     */
    public void monitor(String endpoint, int events) {
        monitor(endpoint, events, null);
    }

    /**
     * {@link #monitor(String, int)} for a {@link SocketMonitor} whose event socket is into (null: none). Recorded inside
     * the same claim as libzmq's call: a close from another thread during it is made as the call ends, and must find
     * the monitoring to stop (else the monitor's close would wait for that stop for good).
     */
    void monitor(String endpoint, int events, Socket into) {
        SocketCore c = core;
        c.begin();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = endpoint == null ? MemorySegment.NULL : arena.allocateFrom(endpoint);
            MemorySegment state = c.callState();
            if (LibZmq.socketMonitor(state, c.handle, text, events) != 0) {
                throw error(LibZmq.errno(state), endpoint == null ? "Stopping the monitoring" : "Monitoring on " + endpoint);
            }
            c.monitoredInto(into); // stopped, or replaced by this one
        } finally {
            c.end();
        }
    }

    // ---- errors

    static ZmqException error(int errno, String what) {
        if (errno == Errno.ETERM) {
            return new ContextTerminatedException(what + ": the context was closed; close this socket");
        }
        if (errno == Errno.EFSM) {
            return new ZmqException(errno, what + " out of turn (a REQ must alternate send and receive, a REP receive and send)");
        }
        if (errno == Errno.EHOSTUNREACH) {
            return new ZmqException(errno, what + " to an unknown or disconnected peer (ROUTER_MANDATORY)");
        }
        return new ZmqException(errno, what);
    }

    @Override
    public String toString() {
        return "Socket[" + core.type + (isClosed() ? ", closed]" : "]");
    }
}
