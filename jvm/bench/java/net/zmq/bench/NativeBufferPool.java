package net.zmq.bench;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.locks.LockSupport;
import net.zmq.Message;
import net.zmq.internal.Native;

/**
 * A fixed set of native buffers holding one payload, for the zero-copy benchmark: the data already lives in native
 * memory (the case zero-copy is for), each buffer is handed to libzmq and comes back through the free callback, which
 * runs on libzmq's I/O thread. Taking and returning allocate nothing (an array-backed queue). When every buffer is in
 * libzmq's hands the sender waits until half of them have come back, as libzmq's own sender waits at its high-water
 * mark until the queue is down to the low-water mark: waking it for every buffer that comes back would cost a thread
 * switch per message. Making more buffers instead would copy the payload into each new one (a copying send with extra
 * steps), and with HWM 0 the sender runs thousands of messages ahead of the wire.
 */
final class NativeBufferPool implements Message.FreeCallback {
    /**
     * The pool's memory: 8 MiB, and never more buffers than one operation sends (so small sizes never wait). A buffer
     * goes round the whole pool before it is sent again, so a pool far larger than the processor's caches has the
     * kernel read every buffer from main memory, while the copying send copies from one array that stays in the cache:
     * at 64 KB, with a 64 MiB pool the zero-copy send saved a tenth of the copying send's time at most (jvm/README.md).
     */
    static long bytes = 8L << 20; // Suite --pool-mib N sets it, before the first pool is made

    private final ArrayBlockingQueue<MemorySegment> free;
    /** How many buffers must be back before a waiting sender goes on. */
    private final int lowWater;
    /**
     * The sender (one thread takes from a pool) while it waits for buffers, else null. It publishes itself here, then
     * reads how many are free; the callback adds a buffer, then reads this: the queue's lock orders the two, so one of
     * them sees the other.
     */
    private volatile Thread waiting;

    NativeBufferPool(byte[] payload) {
        int buffers = buffers(payload.length);
        free = new ArrayBlockingQueue<>(buffers);
        lowWater = Math.max(1, buffers / 2);
        for (int i = 0; i < buffers; i++) {
            MemorySegment buffer = Native.malloc(payload.length);
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, buffer, 0, payload.length);
            free.add(buffer);
        }
    }

    /** How many buffers a pool for payloads of size holds. */
    static int buffers(int size) {
        return (int) Math.min(Suite.MESSAGES, bytes / Math.max(size, 1));
    }

    /** A buffer holding the payload; when none is free, waits until half the pool is back. */
    MemorySegment take() {
        MemorySegment buffer = free.poll();
        if (buffer != null) {
            return buffer;
        }
        assert waiting == null : "two senders take from one pool";
        waiting = Thread.currentThread();
        try {
            while (free.size() < lowWater) {
                LockSupport.park(this); // all buffers are in flight: at least lowWater of them will come back
            }
        } finally {
            waiting = null;
        }
        return free.poll();
    }

    @Override
    public void free(MemorySegment buffer) {
        free.add(buffer); // one of ours: there is always room for it
        Thread sender = waiting;
        if (sender != null && free.size() >= lowWater) {
            LockSupport.unpark(sender);
        }
    }
}
