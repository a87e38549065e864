package net.zmq.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The C library's malloc and free: the native memory of messages, sockets' scratch buffers and zero-copy buffers
 * lives as long as its owner object and is freed by its close (or Cleaner), so it needs no Arena per allocation
 * (a shared Arena's close stops every thread at a safepoint, which is what made the first JVM-ZMQ's zero-copy slow).
 */
public final class Native {
    private Native() {
    }

    private static final MethodHandle MALLOC = LibZmq.LINKER.downcallHandle(
            LibZmq.LINKER.defaultLookup().find("malloc").orElseThrow(), FunctionDescriptor.of(ADDRESS, JAVA_LONG), LibZmq.CRITICAL);
    private static final MethodHandle FREE = LibZmq.LINKER.downcallHandle(
            LibZmq.LINKER.defaultLookup().find("free").orElseThrow(), FunctionDescriptor.ofVoid(ADDRESS), LibZmq.CRITICAL);

    /** The C function free, for libzmq to call directly (no upcall) on memory from {@link #malloc}. */
    public static final MemorySegment FREE_FUNCTION = LibZmq.LINKER.defaultLookup().find("free").orElseThrow();

    /** size bytes of native memory, never null; throws OutOfMemoryError when malloc fails. */
    public static MemorySegment malloc(long size) {
        MemorySegment memory;
        try {
            memory = (MemorySegment) MALLOC.invokeExact(Math.max(size, 1L));
        } catch (Throwable t) {
            throw LibZmq.rethrow(t);
        }
        if (memory.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("malloc(" + size + ") failed");
        }
        return memory.reinterpret(size);
    }

    public static void free(MemorySegment memory) {
        try {
            FREE.invokeExact(memory);
        } catch (Throwable t) {
            throw LibZmq.rethrow(t);
        }
    }

    /** Frees by address (for Cleaner actions, which hold no segment). */
    public static void free(long address) {
        free(MemorySegment.ofAddress(address));
    }
}
