package net.zmq.bench;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ArrayBlockingQueue;
import net.zmq.Message;
import net.zmq.internal.Native;

/**
 * Native buffers holding one payload, for the zero-copy benchmark: the data already lives in native memory (the case
 * zero-copy is for), each buffer is handed to libzmq and comes back through the free callback, which runs on libzmq's
 * I/O thread. Taking and returning allocate nothing (an array-backed queue); when every buffer is in flight a new one
 * is made, and a full pool frees what comes back.
 */
final class NativeBufferPool implements Message.FreeCallback {
    private final ArrayBlockingQueue<MemorySegment> free = new ArrayBlockingQueue<>(4096);
    private final byte[] payload;

    NativeBufferPool(byte[] payload) {
        this.payload = payload.clone();
    }

    MemorySegment take() {
        MemorySegment buffer = free.poll();
        if (buffer == null) {
            buffer = Native.malloc(payload.length);
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, buffer, 0, payload.length);
        }
        return buffer;
    }

    @Override
    public void free(MemorySegment buffer) {
        if (!free.offer(buffer)) {
            Native.free(buffer);
        }
    }
}
