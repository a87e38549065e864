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
    private static final ThreadLocal<CallScratch> OF_THREAD = ThreadLocal.withInitial(CallScratch::new);

    final MemorySegment message;
    final MemorySegment sendMessage;
    final MemorySegment options;
    final MemorySegment callState;

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
        return OF_THREAD.get();
    }

    /** Where the calling thread's call outside a socket captures errno (see {@link LibZmq#errno}). */
    static MemorySegment threadCallState() {
        return OF_THREAD.get().callState;
    }
}
