package net.zmq.bench;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ArrayBlockingQueue;
import net.zmq.Message;
import net.zmq.internal.Native;

/**
 * A fixed set of native buffers holding one payload, for the zero-copy benchmark: the data already lives in native
 * memory (the case zero-copy is for), each buffer is handed to libzmq and comes back through the free callback, which
 * runs on libzmq's I/O thread. Taking and returning allocate nothing (an array-backed queue). When every buffer is in
 * libzmq's hands the sender waits for one to come back, as a real pool of fixed memory would: making more would copy
 * the payload into each new one (a copying send with extra steps), and with HWM 0 the sender runs thousands of
 * messages ahead of the wire.
 */
final class NativeBufferPool implements Message.FreeCallback {
    /** The pool's memory: 64 MiB, and never more buffers than one operation sends (so small sizes never wait). */
    static final long BYTES = 64L << 20;

    private final ArrayBlockingQueue<MemorySegment> free;

    NativeBufferPool(byte[] payload) {
        int buffers = buffers(payload.length);
        free = new ArrayBlockingQueue<>(buffers);
        for (int i = 0; i < buffers; i++) {
            MemorySegment buffer = Native.malloc(payload.length);
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, buffer, 0, payload.length);
            free.add(buffer);
        }
    }

    /** How many buffers a pool for payloads of size holds. */
    static int buffers(int size) {
        return (int) Math.min(Suite.MESSAGES, BYTES / Math.max(size, 1));
    }

    /** A buffer holding the payload, waiting while all of them are in flight. */
    MemorySegment take() {
        try {
            return free.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a buffer to come back from libzmq", e);
        }
    }

    @Override
    public void free(MemorySegment buffer) {
        free.add(buffer); // one of ours: there is always room for it
    }
}
