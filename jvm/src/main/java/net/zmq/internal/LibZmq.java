package net.zmq.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * libzmq's functions as downcall handles, each created once (static final, so the JIT inlines the call).
 * Handles marked "critical" skip the thread-state transition: they are used only for calls that are short, never
 * block and can never call back into Java (libzmq calls the zero-copy free callback only from closing, sending or
 * receiving a message, or from processing a socket's commands, never from these), plus non-blocking zmq_send/zmq_recv while no zero-copy message exists
 * ({@link #criticalSendRecv()}). Every method rethrows a handle's Throwable unchecked: a downcall throws
 * only what the JVM itself throws (errors), never a checked exception.
 */
public final class LibZmq {
    private LibZmq() {
    }

    static final Linker LINKER = Linker.nativeLinker();
    static final SymbolLookup LIB = NativeLoader.load();
    static final Linker.Option CRITICAL = Linker.Option.critical(false);
    static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    /** Bytes of the segment a call's errno is captured into (see {@link #errno(MemorySegment)}). */
    public static final long CALL_STATE_SIZE = Linker.Option.captureStateLayout().byteSize();
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout()
            .byteOffset(MemoryLayout.PathElement.groupElement("errno"));

    static MethodHandle handle(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LIB.find(name).orElseThrow(() -> new UnsatisfiedLinkError(
                "libzmq (" + NativeLoader.loadedFrom + ") has no function " + name + "; it is too old (4.3 needed)"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** A handle for a function that older or non-draft builds of libzmq lack; null when absent. */
    static MethodHandle optional(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LIB.find(name).map(symbol -> LINKER.downcallHandle(symbol, descriptor, options)).orElse(null);
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected exception from a native call", t);
    }

    // ---- errors and version
    private static final MethodHandle STRERROR = handle("zmq_strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle VERSION = handle("zmq_version", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle HAS = handle("zmq_has", FunctionDescriptor.of(JAVA_INT, ADDRESS));

    /**
     * errno as the call that was given callState left it (any downcall linked with {@link #CAPTURE_ERRNO}, libc's
     * too). The binding reads errno only as a downcall captured it ({@link Linker.Option#captureCallState}), the failed
     * call itself or a second try of it (sends, receives, options, polls: see below): the JVM may itself overwrite
     * errno between a downcall's return and a later zmq_errno() (blocking for a safepoint on the way back, for one).
     * zmq_msg_init_size, which can only fail with ENOMEM, captures nothing.
     */
    public static int errno(MemorySegment callState) {
        return callState.get(JAVA_INT, ERRNO_OFFSET);
    }

    public static String strerror(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void version(MemorySegment major, MemorySegment minor, MemorySegment patch) {
        try {
            VERSION.invokeExact(major, minor, patch);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean has(MemorySegment capability) {
        try {
            return (int) HAS.invokeExact(capability) != 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- contexts
    private static final MethodHandle CTX_NEW = handle("zmq_ctx_new", FunctionDescriptor.of(ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle CTX_TERM = handle("zmq_ctx_term", FunctionDescriptor.of(JAVA_INT, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle CTX_SHUTDOWN = handle("zmq_ctx_shutdown", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle CTX_SET = handle("zmq_ctx_set", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle CTX_GET = handle("zmq_ctx_get", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    public static MemorySegment ctxNew(MemorySegment callState) {
        try {
            return (MemorySegment) CTX_NEW.invokeExact(callState);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int ctxTerm(MemorySegment callState, MemorySegment ctx) {
        try {
            return (int) CTX_TERM.invokeExact(callState, ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int ctxShutdown(MemorySegment ctx) {
        try {
            return (int) CTX_SHUTDOWN.invokeExact(ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int ctxSet(MemorySegment callState, MemorySegment ctx, int option, int value) {
        try {
            return (int) CTX_SET.invokeExact(callState, ctx, option, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int ctxGet(MemorySegment ctx, int option) {
        try {
            return (int) CTX_GET.invokeExact(ctx, option);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- sockets
    private static final MethodHandle SOCKET = handle("zmq_socket", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle CLOSE = handle("zmq_close", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    // Options are read per message (RCVMORE, EVENTS): as with sends and receives (below), a first critical try captures
    // nothing, and a failed one is made again capturing errno (the same arguments fail the same way). Reading ZMQ_EVENTS
    // processes the socket's commands, which may close messages (a zero-copy one calls back into Java), and a
    // thread-safe socket's options take its lock, which a thread inside an ordinary call may hold while it waits for a
    // safepoint: those go through the ordinary handle (see the option calls' critical argument).
    private static final FunctionDescriptor SETSOCKOPT_TYPE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
    private static final FunctionDescriptor GETSOCKOPT_TYPE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle SETSOCKOPT = handle("zmq_setsockopt", SETSOCKOPT_TYPE, CRITICAL);
    private static final MethodHandle SETSOCKOPT_CAPTURING = handle("zmq_setsockopt", SETSOCKOPT_TYPE, CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle GETSOCKOPT = handle("zmq_getsockopt", GETSOCKOPT_TYPE, CRITICAL);
    private static final MethodHandle GETSOCKOPT_CAPTURING = handle("zmq_getsockopt", GETSOCKOPT_TYPE, CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle SETSOCKOPT_ORDINARY = handle("zmq_setsockopt", SETSOCKOPT_TYPE, CAPTURE_ERRNO);
    private static final MethodHandle GETSOCKOPT_ORDINARY = handle("zmq_getsockopt", GETSOCKOPT_TYPE, CAPTURE_ERRNO);
    private static final MethodHandle BIND = handle("zmq_bind", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle CONNECT = handle("zmq_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle UNBIND = handle("zmq_unbind", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle DISCONNECT = handle("zmq_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle MONITOR = handle("zmq_socket_monitor", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle JOIN = optional("zmq_join", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle LEAVE = optional("zmq_leave", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);

    public static MemorySegment socket(MemorySegment callState, MemorySegment ctx, int type) {
        try {
            return (MemorySegment) SOCKET.invokeExact(callState, ctx, type);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int close(MemorySegment socket) {
        try {
            return (int) CLOSE.invokeExact(socket);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_setsockopt; critical only when it may be (see above); errno in callState when it fails. */
    public static int setsockopt(boolean critical, MemorySegment callState, MemorySegment socket, int option, MemorySegment value, long size) {
        try {
            if (!critical) {
                return (int) SETSOCKOPT_ORDINARY.invokeExact(callState, socket, option, value, size);
            }
            int rc = (int) SETSOCKOPT.invokeExact(socket, option, value, size);
            return rc == 0 ? 0 : (int) SETSOCKOPT_CAPTURING.invokeExact(callState, socket, option, value, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_getsockopt; critical only when it may be (see above); errno in callState when it fails. */
    public static int getsockopt(boolean critical, MemorySegment callState, MemorySegment socket, int option, MemorySegment value, MemorySegment size) {
        try {
            if (!critical) {
                return (int) GETSOCKOPT_ORDINARY.invokeExact(callState, socket, option, value, size);
            }
            int rc = (int) GETSOCKOPT.invokeExact(socket, option, value, size);
            return rc == 0 ? 0 : (int) GETSOCKOPT_CAPTURING.invokeExact(callState, socket, option, value, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_bind, zmq_connect, zmq_unbind, zmq_disconnect, zmq_join, zmq_leave: 0..5. */
    public static int endpointCall(MemorySegment callState, int which, MemorySegment socket, MemorySegment text) {
        MethodHandle handle = switch (which) {
            case 0 -> BIND;
            case 1 -> CONNECT;
            case 2 -> UNBIND;
            case 3 -> DISCONNECT;
            case 4 -> JOIN;
            default -> LEAVE;
        };
        if (handle == null) {
            throw new UnsupportedOperationException("this libzmq (" + NativeLoader.loadedFrom
                    + ") was built without the draft API (zmq_join/zmq_leave); use the bundled libzmq");
        }
        try {
            return (int) handle.invokeExact(callState, socket, text);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_socket_get_peer_state (draft), or null in a libzmq without it. */
    private static final MethodHandle PEER_STATE = optional("zmq_socket_get_peer_state",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG), CRITICAL);

    /**
     * Whether a ROUTER socket has a peer with this routing id (zmq_socket_get_peer_state, draft): true or false, or
     * null when this libzmq cannot say.
     */
    public static Boolean routerHasPeer(MemorySegment socket, MemorySegment routingId) {
        if (PEER_STATE == null) {
            return null;
        }
        try {
            return (int) PEER_STATE.invokeExact(socket, routingId, routingId.byteSize()) >= 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int socketMonitor(MemorySegment callState, MemorySegment socket, MemorySegment endpoint, int events) {
        try {
            return (int) MONITOR.invokeExact(callState, socket, endpoint, events);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- send and receive
    /*
     * Each of zmq_send, zmq_recv, zmq_msg_send and zmq_msg_recv has three handles, chosen by the mode argument: a
     * critical one, an ordinary one that captures nothing, and an ordinary one that captures errno. A capturing
     * downcall slices its capture segment on every call, an object that only escape analysis in a C2-compiled caller
     * removes: a call that captures allocates whenever the JIT did not inline it all (a rare path, a recompilation).
     * So the binding captures on a first try only where a failure is an ordinary outcome (a non-blocking receive, whose
     * critical handles capture) or must be told apart at once (a timeout from an interruption), and otherwise learns
     * why a call failed from a second try that captures (see Socket.transfer).
     */
    /**
     * Mode: the critical handle that captures nothing; sends only (see {@link #criticalSendRecv()}). Once a zero-copy
     * message exists, the critical modes take the ordinary handles (still non-blocking: they are used with ZMQ_DONTWAIT).
     */
    public static final int CALL_CRITICAL = 0;
    /** Mode: the ordinary handle, capturing nothing. */
    public static final int CALL_ORDINARY = 1;
    /**
     * Mode: the critical handle that captures errno; receives only (see {@link #criticalSendRecv()}): a non-blocking
     * receive meets EAGAIN as often as not.
     */
    public static final int CALL_CRITICAL_CAPTURING = 2;
    /** Mode: the ordinary handle, capturing errno into the call state (read it with {@link #errno}). */
    public static final int CALL_CAPTURING = 3;

    /** Whether a call in this mode reads its call state (captures errno into it). */
    public static boolean captures(int mode) {
        return mode >= CALL_CRITICAL_CAPTURING;
    }

    private static final FunctionDescriptor SEND_RECV = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT);
    private static final FunctionDescriptor MSG_SEND_RECV = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
    private static final MethodHandle SEND_CRITICAL = handle("zmq_send", SEND_RECV, CRITICAL);
    private static final MethodHandle SEND = handle("zmq_send", SEND_RECV);
    /** Critical with heap access: its buffer may be a Java array (see {@link #sendHeapCritical}). */
    private static final MethodHandle SEND_CRITICAL_HEAP = handle("zmq_send", SEND_RECV, Linker.Option.critical(true));
    private static final MethodHandle SEND_CAPTURING = handle("zmq_send", SEND_RECV, CAPTURE_ERRNO);
    private static final MethodHandle RECV_CRITICAL = handle("zmq_recv", SEND_RECV, CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle RECV = handle("zmq_recv", SEND_RECV);
    private static final MethodHandle RECV_CAPTURING = handle("zmq_recv", SEND_RECV, CAPTURE_ERRNO);
    private static final MethodHandle MSG_SEND_CRITICAL = handle("zmq_msg_send", MSG_SEND_RECV, CRITICAL);
    private static final MethodHandle MSG_SEND = handle("zmq_msg_send", MSG_SEND_RECV);
    private static final MethodHandle MSG_SEND_CAPTURING = handle("zmq_msg_send", MSG_SEND_RECV, CAPTURE_ERRNO);
    private static final MethodHandle MSG_RECV_CRITICAL = handle("zmq_msg_recv", MSG_SEND_RECV, CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle MSG_RECV = handle("zmq_msg_recv", MSG_SEND_RECV);
    private static final MethodHandle MSG_RECV_CAPTURING = handle("zmq_msg_recv", MSG_SEND_RECV, CAPTURE_ERRNO);

    /** -Dnet.zmq.critical=false turns the critical send and receive attempts off (to measure what they save). */
    private static final boolean CRITICAL_SEND_RECV = !"false".equals(System.getProperty("net.zmq.critical"));
    /**
     * Whether no zero-copy message has been made in this process. A non-blocking zmq_send or zmq_recv is short, but it
     * may close messages (a dropped frame, a pipe torn down by a command it processes), and closing a zero-copy message
     * calls its free callback, an upcall a critical call must never make: from the first zero-copy message on, they
     * go through the ordinary handles.
     */
    private static volatile boolean noZeroCopyYet = true;

    /** Called before each zero-copy message is created. */
    public static void zeroCopyInUse() {
        if (noZeroCopyYet) {
            firstZeroCopy();
        }
    }

    private static synchronized void firstZeroCopy() {
        if (!noZeroCopyYet) {
            return;
        }
        noZeroCopyYet = false;
        // A thread that read the flag as true just before may be about to make a critical call, or be inside one, that
        // could meet this message. Closing a shared arena stops every thread at a safepoint, which a thread inside a
        // critical call reaches only once it has returned. The critical send and receive modes read the flag again
        // right before their downcall (below), which leaves no safepoint between the read and the call in compiled
        // code; in interpreted code only the handle's own linkage lies between them, which is where the small window
        // that remains is.
        Arena.ofShared().close();
    }

    /** Whether the critical modes may be used (always with ZMQ_DONTWAIT). */
    public static boolean criticalSendRecv() {
        return CRITICAL_SEND_RECV && noZeroCopyYet;
    }

    /** zmq_send in mode {@link #CALL_CRITICAL}, {@link #CALL_ORDINARY} or {@link #CALL_CAPTURING}. */
    public static int send(int mode, MemorySegment callState, MemorySegment socket, MemorySegment buffer, long size, int flags) {
        try {
            return switch (mode) {
                case CALL_CRITICAL -> noZeroCopyYet ? (int) SEND_CRITICAL.invokeExact(socket, buffer, size, flags)
                        : (int) SEND.invokeExact(socket, buffer, size, flags);
                case CALL_ORDINARY -> (int) SEND.invokeExact(socket, buffer, size, flags);
                case CALL_CAPTURING -> (int) SEND_CAPTURING.invokeExact(callState, socket, buffer, size, flags);
                default -> throw noHandle("zmq_send", mode);
            };
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * zmq_send straight from a heap segment (a Java array's): a critical, non-blocking call (flags must hold
     * ZMQ_DONTWAIT) that libzmq copies the array in, the GC waiting meanwhile. Only while {@link #criticalSendRecv()};
     * captures nothing. Returns -1 when it failed, or when critical calls have just been turned off (it then made no
     * call): either way the caller sends the frame another way.
     */
    public static int sendHeapCritical(MemorySegment socket, MemorySegment array, long size, int flags) {
        try {
            return noZeroCopyYet ? (int) SEND_CRITICAL_HEAP.invokeExact(socket, array, size, flags) : -1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_recv in mode {@link #CALL_CRITICAL_CAPTURING}, {@link #CALL_ORDINARY} or {@link #CALL_CAPTURING}. */
    public static int recv(int mode, MemorySegment callState, MemorySegment socket, MemorySegment buffer, long size, int flags) {
        try {
            return switch (mode) {
                case CALL_CRITICAL_CAPTURING -> noZeroCopyYet ? (int) RECV_CRITICAL.invokeExact(callState, socket, buffer, size, flags)
                        : (int) RECV_CAPTURING.invokeExact(callState, socket, buffer, size, flags);
                case CALL_ORDINARY -> (int) RECV.invokeExact(socket, buffer, size, flags);
                case CALL_CAPTURING -> (int) RECV_CAPTURING.invokeExact(callState, socket, buffer, size, flags);
                default -> throw noHandle("zmq_recv", mode);
            };
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_msg_send in mode {@link #CALL_CRITICAL}, {@link #CALL_ORDINARY} or {@link #CALL_CAPTURING}. */
    public static int msgSend(int mode, MemorySegment callState, MemorySegment msg, MemorySegment socket, int flags) {
        try {
            return switch (mode) {
                case CALL_CRITICAL -> noZeroCopyYet ? (int) MSG_SEND_CRITICAL.invokeExact(msg, socket, flags)
                        : (int) MSG_SEND.invokeExact(msg, socket, flags);
                case CALL_ORDINARY -> (int) MSG_SEND.invokeExact(msg, socket, flags);
                case CALL_CAPTURING -> (int) MSG_SEND_CAPTURING.invokeExact(callState, msg, socket, flags);
                default -> throw noHandle("zmq_msg_send", mode);
            };
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** zmq_msg_recv in mode {@link #CALL_CRITICAL_CAPTURING}, {@link #CALL_ORDINARY} or {@link #CALL_CAPTURING}. */
    public static int msgRecv(int mode, MemorySegment callState, MemorySegment msg, MemorySegment socket, int flags) {
        try {
            return switch (mode) {
                case CALL_CRITICAL_CAPTURING -> noZeroCopyYet ? (int) MSG_RECV_CRITICAL.invokeExact(callState, msg, socket, flags)
                        : (int) MSG_RECV_CAPTURING.invokeExact(callState, msg, socket, flags);
                case CALL_ORDINARY -> (int) MSG_RECV.invokeExact(msg, socket, flags);
                case CALL_CAPTURING -> (int) MSG_RECV_CAPTURING.invokeExact(callState, msg, socket, flags);
                default -> throw noHandle("zmq_msg_recv", mode);
            };
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static IllegalArgumentException noHandle(String function, int mode) {
        return new IllegalArgumentException(function + " has no handle for mode " + mode);
    }

    // ---- messages
    /** sizeof(zmq_msg_t). */
    public static final long MSG_SIZE = 64;
    private static final MethodHandle MSG_INIT = handle("zmq_msg_init", FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    /** Not capturing errno: zmq_msg_init_size fails with ENOMEM only (zmq_msg_init_size(3)), and frames are built often. */
    private static final MethodHandle MSG_INIT_SIZE = handle("zmq_msg_init_size", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), CRITICAL);
    private static final MethodHandle MSG_INIT_DATA = handle("zmq_msg_init_data", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS), CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle MSG_CLOSE = handle("zmq_msg_close", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle MSG_DATA = handle("zmq_msg_data", FunctionDescriptor.of(ADDRESS, ADDRESS), CRITICAL);
    /** zmq_msg_data as a plain address: no segment object per call (copy through {@link #EVERYTHING}). */
    private static final MethodHandle MSG_DATA_ADDRESS = handle("zmq_msg_data", FunctionDescriptor.of(JAVA_LONG, ADDRESS), CRITICAL);
    /** All of memory as one segment, to copy from or to an address without making a segment for it. */
    public static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final MethodHandle MSG_SIZE_FN = handle("zmq_msg_size", FunctionDescriptor.of(JAVA_LONG, ADDRESS), CRITICAL);
    private static final MethodHandle MSG_MORE = handle("zmq_msg_more", FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle MSG_GETS = handle("zmq_msg_gets", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle MSG_SET_ROUTING_ID = optional("zmq_msg_set_routing_id", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle MSG_ROUTING_ID = optional("zmq_msg_routing_id", FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle MSG_SET_GROUP = optional("zmq_msg_set_group", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CRITICAL, CAPTURE_ERRNO);
    private static final MethodHandle MSG_GROUP = optional("zmq_msg_group", FunctionDescriptor.of(ADDRESS, ADDRESS), CRITICAL);

    public static int msgInit(MemorySegment msg) {
        try {
            return (int) MSG_INIT.invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** 0, or -1 when out of memory (ENOMEM, the only failure). */
    public static int msgInitSize(MemorySegment msg, long size) {
        try {
            return (int) MSG_INIT_SIZE.invokeExact(msg, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int msgInitData(MemorySegment callState, MemorySegment msg, MemorySegment data, long size, MemorySegment ffn, MemorySegment hint) {
        try {
            return (int) MSG_INIT_DATA.invokeExact(callState, msg, data, size, ffn, hint);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int msgClose(MemorySegment msg) {
        try {
            return (int) MSG_CLOSE.invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment msgData(MemorySegment msg) {
        try {
            return (MemorySegment) MSG_DATA.invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long msgDataAddress(MemorySegment msg) {
        try {
            return (long) MSG_DATA_ADDRESS.invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long msgSize(MemorySegment msg) {
        try {
            return (long) MSG_SIZE_FN.invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean msgMore(MemorySegment msg) {
        try {
            return (int) MSG_MORE.invokeExact(msg) != 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment msgGets(MemorySegment msg, MemorySegment property) {
        try {
            return (MemorySegment) MSG_GETS.invokeExact(msg, property);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static MethodHandle draft(MethodHandle handle, String name) {
        if (handle == null) {
            throw new UnsupportedOperationException("this libzmq (" + NativeLoader.loadedFrom
                    + ") was built without the draft API (" + name + "); use the bundled libzmq");
        }
        return handle;
    }

    public static int msgSetRoutingId(MemorySegment callState, MemorySegment msg, int id) {
        try {
            return (int) draft(MSG_SET_ROUTING_ID, "zmq_msg_set_routing_id").invokeExact(callState, msg, id);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int msgRoutingId(MemorySegment msg) {
        try {
            return (int) draft(MSG_ROUTING_ID, "zmq_msg_routing_id").invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int msgSetGroup(MemorySegment callState, MemorySegment msg, MemorySegment group) {
        try {
            return (int) draft(MSG_SET_GROUP, "zmq_msg_set_group").invokeExact(callState, msg, group);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment msgGroup(MemorySegment msg) {
        try {
            return (MemorySegment) draft(MSG_GROUP, "zmq_msg_group").invokeExact(msg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean hasDraftApi() {
        return MSG_SET_ROUTING_ID != null && JOIN != null;
    }

    // ---- a thread-safe socket's notification descriptor (draft API): such sockets have no ZMQ_FD, but a zmq_poller
    // holding one gets a descriptor of its own that libzmq signals as the socket's commands arrive (zmq_poller_fd)
    private static final MethodHandle POLLER_NEW = optional("zmq_poller_new", FunctionDescriptor.of(ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle POLLER_ADD = optional("zmq_poller_add", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_SHORT), CAPTURE_ERRNO);
    private static final MethodHandle POLLER_FD = optional("zmq_poller_fd", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle POLLER_DESTROY = optional("zmq_poller_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));

    /** @throws UnsupportedOperationException this libzmq was built without the draft API's zmq_poller */
    private static void requirePoller() {
        if (POLLER_NEW == null || POLLER_ADD == null || POLLER_FD == null || POLLER_DESTROY == null) {
            throw new UnsupportedOperationException("this libzmq (" + NativeLoader.loadedFrom
                    + ") was built without the draft API (zmq_poller_fd); use the bundled libzmq");
        }
    }

    /** A new zmq_poller, or NULL (errno set). */
    public static MemorySegment pollerNew(MemorySegment callState) {
        requirePoller();
        try {
            return (MemorySegment) POLLER_NEW.invokeExact(callState);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int pollerAdd(MemorySegment callState, MemorySegment poller, MemorySegment socket, short events) {
        try {
            return (int) POLLER_ADD.invokeExact(callState, poller, socket, MemorySegment.NULL, events);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Writes the poller's descriptor (an int on Linux) to fd. */
    public static int pollerFd(MemorySegment callState, MemorySegment poller, MemorySegment fd) {
        try {
            return (int) POLLER_FD.invokeExact(callState, poller, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Destroys the poller whose address cell holds (libzmq clears the cell); its descriptor closes with it. */
    public static int pollerDestroy(MemorySegment cell) {
        try {
            return (int) POLLER_DESTROY.invokeExact(cell);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- polling, proxies

    /** handle with its last parameter, a C long, taken as a Java long (narrowed where C's long is 32 bits). */
    private static MethodHandle longTimeout(MethodHandle handle) {
        MethodType type = handle.type();
        return MethodHandles.explicitCastArguments(handle, type.changeParameterType(type.parameterCount() - 1, long.class));
    }

    /** C's long, zmq_poll's timeout: 64 bits on Linux, 32 on Windows. */
    private static final MemoryLayout C_LONG = LINKER.canonicalLayouts().get("long");
    /** The longest timeout one zmq_poll takes; {@link #poll} waits a longer one in parts. */
    private static final long MAX_POLL_TIMEOUT_MS = C_LONG.byteSize() == 4 ? Integer.MAX_VALUE : Long.MAX_VALUE;
    private static final FunctionDescriptor POLL_TYPE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, C_LONG);
    private static final MethodHandle POLL = longTimeout(handle("zmq_poll", POLL_TYPE));
    private static final MethodHandle POLL_CAPTURING = longTimeout(handle("zmq_poll", POLL_TYPE, CAPTURE_ERRNO));
    private static final MethodHandle PROXY = handle("zmq_proxy", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle PROXY_STEERABLE = handle("zmq_proxy_steerable", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS), CAPTURE_ERRNO);

    /**
     * zmq_poll: the number of items ready, or -1 with the reason in callState (EINTR: poll again).
     * <p>The poll itself captures nothing. A capturing downcall makes a slice of its capture segment on each call,
     * which only a caller compiled by C2 does without (escape analysis), and a poll is often too rare for C2 (a few
     * per thousand messages received): it would allocate on every poll. When it fails, a second poll that does not
     * wait tells why, capturing errno, as the failures of zmq_poll recur (ETERM, ENOTSOCK, EFAULT); if that one
     * succeeds, the first was interrupted (EINTR), so its result is returned, or EINTR when nothing is ready.
     */
    public static int poll(MemorySegment callState, MemorySegment items, int count, long timeoutMs) {
        // Each part returns 0 only once it has waited all of its time.
        for (; timeoutMs > MAX_POLL_TIMEOUT_MS; timeoutMs -= MAX_POLL_TIMEOUT_MS) {
            int rc = pollOnce(callState, items, count, MAX_POLL_TIMEOUT_MS);
            if (rc != 0) {
                return rc;
            }
        }
        return pollOnce(callState, items, count, timeoutMs);
    }

    private static int pollOnce(MemorySegment callState, MemorySegment items, int count, long timeoutMs) {
        try {
            int rc = (int) POLL.invokeExact(items, count, timeoutMs);
            if (rc >= 0) {
                return rc;
            }
            rc = (int) POLL_CAPTURING.invokeExact(callState, items, count, 0L);
            if (rc == 0) {
                callState.set(JAVA_INT, ERRNO_OFFSET, Errno.EINTR);
                return -1;
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int proxy(MemorySegment callState, MemorySegment frontend, MemorySegment backend, MemorySegment capture, MemorySegment control) {
        try {
            return control.equals(MemorySegment.NULL)
                    ? (int) PROXY.invokeExact(callState, frontend, backend, capture)
                    : (int) PROXY_STEERABLE.invokeExact(callState, frontend, backend, capture, control);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- CURVE and Z85
    private static final MethodHandle Z85_ENCODE = handle("zmq_z85_encode", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), CRITICAL);
    private static final MethodHandle Z85_DECODE = handle("zmq_z85_decode", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS), CRITICAL);
    private static final MethodHandle CURVE_KEYPAIR = handle("zmq_curve_keypair", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle CURVE_PUBLIC = handle("zmq_curve_public", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CAPTURE_ERRNO);

    public static boolean z85Encode(MemorySegment dest, MemorySegment data, long size) {
        try {
            return !((MemorySegment) Z85_ENCODE.invokeExact(dest, data, size)).equals(MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean z85Decode(MemorySegment dest, MemorySegment text) {
        try {
            return !((MemorySegment) Z85_DECODE.invokeExact(dest, text)).equals(MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int curveKeypair(MemorySegment callState, MemorySegment publicKey, MemorySegment secretKey) {
        try {
            return (int) CURVE_KEYPAIR.invokeExact(callState, publicKey, secretKey);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int curvePublic(MemorySegment callState, MemorySegment publicKey, MemorySegment secretKey) {
        try {
            return (int) CURVE_PUBLIC.invokeExact(callState, publicKey, secretKey);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
