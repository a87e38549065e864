package net.zmq;

import java.lang.foreign.MemorySegment;
import net.zmq.internal.LibZmq;
import net.zmq.internal.Native;

/**
 * A thread's native scratch memory for its calls on thread-safe sockets, which several threads may be inside at once
 * (a socket of another type has its own, see {@link SocketCore}): the zmq_msg_t frames are received into (empty
 * between calls), the one array sends are built in (uninitialised between sends), an option buffer, and where calls
 * capture errno, which is also where the thread's calls outside a socket or poller (contexts, messages, the proxy)
 * capture it. Made at the thread's first such call; freed by the Cleaner once the thread, and with it this object, is
 * gone.
 */
final class CallScratch {
    /**
     * The calling thread's scratch memory: its own, or while a zero-copy free callback runs on it (inside one of its
     * libzmq calls, which may be using that memory), the one for calls made in the callback ({@link #enterCallback}).
     */
    private static final ThreadLocal<CallScratch> CURRENT = new ThreadLocal<>();

    final MemorySegment message;
    final MemorySegment sendMessage;
    final MemorySegment options;
    final MemorySegment callState;

    /** The memory for calls made inside a free callback that runs during a call using this one; made when first needed. */
    private CallScratch nested;

    private CallScratch() {
        long optionsAt = 2 * LibZmq.MSG_SIZE;
        MemorySegment block = Native.malloc(optionsAt + SocketCore.OPTION_BUFFER_SIZE + LibZmq.CALL_STATE_SIZE);
        message = block.asSlice(0, LibZmq.MSG_SIZE);
        sendMessage = block.asSlice(LibZmq.MSG_SIZE, LibZmq.MSG_SIZE);
        options = block.asSlice(optionsAt, SocketCore.OPTION_BUFFER_SIZE);
        callState = block.asSlice(optionsAt + SocketCore.OPTION_BUFFER_SIZE, LibZmq.CALL_STATE_SIZE);
        LibZmq.msgInit(message);
        Context.CLEANER.register(this, () -> Native.free(block)); // message holds no frame outside a call
    }

    static CallScratch ofThread() {
        CallScratch scratch = CURRENT.get();
        if (scratch == null) {
            scratch = new CallScratch();
            CURRENT.set(scratch);
        }
        return scratch;
    }

    /** Where the calling thread's call outside a socket captures errno (see {@link LibZmq#errno}). */
    static MemorySegment threadCallState() {
        return ofThread().callState;
    }

    /**
     * Before a zero-copy free callback runs on this thread: the thread may be inside a libzmq call that uses its scratch
     * memory (a thread-safe socket's receive releases its frame from it, which runs the callback), so the calls the
     * callback makes get memory of their own until {@link #exitCallback}. Returns what to restore then: null when this
     * thread has no scratch memory (a libzmq thread's, or one that made no such call), which nothing can be using.
     */
    static CallScratch enterCallback() {
        CallScratch outer = CURRENT.get();
        if (outer != null) {
            if (outer.nested == null) {
                outer.nested = new CallScratch();
            }
            CURRENT.set(outer.nested);
        }
        return outer;
    }

    /** After the free callback: the thread's calls use outer's memory again. */
    static void exitCallback(CallScratch outer) {
        if (outer != null) {
            CURRENT.set(outer);
        }
    }
}
