package net.zmq;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Holds the free callbacks of zero-copy messages while libzmq owns their memory. libzmq gets one upcall stub, made
 * once for the process, and as its hint the number of a slot here: taking and returning a slot is a
 * compare-and-swap each on a lock-free free list of preallocated slots, so a zero-copy message allocates nothing
 * beyond its {@link Message} and needs no Arena (the first JVM-ZMQ made one shared Arena per message; closing it
 * stops every thread, which made its zero-copy 40 to 60 times slower than copying).
 */
final class ZeroCopy {
    private ZeroCopy() {
    }

    private static final int CHUNK_SHIFT = 10;
    private static final int CHUNK = 1 << CHUNK_SHIFT;
    private static final int NONE = -1;

    /** One registration. Fields are written by the registering thread before the slot is handed to libzmq (whose
     * queues order that before the call back) and cleared by the freeing thread before the slot is pushed back. */
    private static final class Slot {
        final int index;
        int next = NONE;
        Message.FreeCallback callback;
        MemorySegment data;

        Slot(int index) {
            this.index = index;
        }
    }

    private static final Object GROW_LOCK = new Object();
    private static volatile Slot[][] chunks = new Slot[0][];
    /** The free list's head: low 32 bits the slot (or -1), high 32 bits a version against ABA. */
    private static final AtomicLong HEAD = new AtomicLong(NONE & 0xFFFFFFFFL);

    /** The function libzmq calls when it no longer needs a zero-copy message's data. */
    static final MemorySegment FREE_FUNCTION;

    static {
        try {
            FREE_FUNCTION = Linker.nativeLinker().upcallStub(
                    MethodHandles.lookup().findStatic(ZeroCopy.class, "onFree",
                            MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Stores the callback and returns the slot to pass to libzmq as the hint. */
    static int register(Message.FreeCallback callback, MemorySegment data) {
        net.zmq.internal.LibZmq.zeroCopyInUse();
        Slot slot = slot(pop());
        slot.callback = callback;
        slot.data = data;
        java.lang.invoke.VarHandle.releaseFence();
        return slot.index;
    }

    /** Takes a registration back without running it (libzmq refused the message). */
    static void unregister(int index) {
        take(index);
    }

    @SuppressWarnings("unused") // called by libzmq through FREE_FUNCTION
    private static void onFree(MemorySegment data, MemorySegment hint) {
        java.lang.invoke.VarHandle.acquireFence();
        Slot slot = slot((int) hint.address());
        Message.FreeCallback callback = slot.callback;
        MemorySegment original = slot.data;
        take(slot.index);
        CallScratch outer = CallScratch.enterCallback();
        try {
            callback.free(original);
        } catch (Throwable t) {
            // An exception cannot unwind into libzmq's I/O thread (the JVM would exit): report it and go on.
            try {
                Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), t);
            } catch (Throwable ignored) { // nor can the handler's own
            }
        } finally {
            CallScratch.exitCallback(outer);
        }
    }

    private static void take(int index) {
        Slot slot = slot(index);
        slot.callback = null;
        slot.data = null;
        push(slot);
    }

    private static Slot slot(int index) {
        return chunks[index >>> CHUNK_SHIFT][index & (CHUNK - 1)];
    }

    private static int pop() {
        while (true) {
            long head = HEAD.get();
            int index = (int) head;
            if (index == NONE) {
                grow();
                continue;
            }
            int next = slot(index).next;
            long newHead = ((head & ~0xFFFFFFFFL) + (1L << 32)) | (next & 0xFFFFFFFFL);
            if (HEAD.compareAndSet(head, newHead)) {
                return index;
            }
        }
    }

    private static void push(Slot slot) {
        while (true) {
            long head = HEAD.get();
            slot.next = (int) head;
            long newHead = ((head & ~0xFFFFFFFFL) + (1L << 32)) | (slot.index & 0xFFFFFFFFL);
            if (HEAD.compareAndSet(head, newHead)) {
                return;
            }
        }
    }

    private static void grow() {
        synchronized (GROW_LOCK) {
            if ((int) HEAD.get() != NONE) {
                return;
            }
            Slot[][] current = chunks;
            int first = current.length << CHUNK_SHIFT;
            Slot[] chunk = new Slot[CHUNK];
            for (int i = 0; i < CHUNK; i++) {
                chunk[i] = new Slot(first + i);
                chunk[i].next = i + 1 < CHUNK ? first + i + 1 : NONE;
            }
            // Publish the slots before any of them can be handed out.
            Slot[][] grown = Arrays.copyOf(current, current.length + 1);
            grown[current.length] = chunk;
            chunks = grown;
            while (true) {
                long head = HEAD.get();
                chunk[CHUNK - 1].next = (int) head;
                long newHead = ((head & ~0xFFFFFFFFL) + (1L << 32)) | (first & 0xFFFFFFFFL);
                if (HEAD.compareAndSet(head, newHead)) {
                    return;
                }
            }
        }
    }

    /** Registrations whose callback has not run yet (for tests). */
    static int pendingCount() {
        int count = 0;
        for (Slot[] chunk : chunks) {
            for (Slot slot : chunk) {
                if (slot.callback != null) {
                    count++;
                }
            }
        }
        return count;
    }
}
