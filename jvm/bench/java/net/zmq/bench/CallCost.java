package net.zmq.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.LongSupplier;
import net.zmq.Context;
import net.zmq.SendFlags;
import net.zmq.Socket;
import net.zmq.SocketType;
import net.zmq.internal.LibZmq;

/**
 * What each layer of a send costs, in nanoseconds per call (a diagnostic, not part of the report): a PUB socket with no
 * subscriber, whose zmq_send succeeds and drops the frame, sent 64 B by each layer in turn, from the bare downcall to
 * the public API. Each row but the first two is compared with the row it adds to or saves from: a critical downcall
 * that does nothing; libzmq's own send; the errno capture (which the binding makes only after a failure); the
 * thread-state transition that a critical downcall skips; the socket's claim (a compare-and-swap in, a fenced store
 * out) with the binding's code around the call; an array send, one critical zmq_send reading the Java heap; a send of
 * a range further into an array, which the binding copies into a zmq_msg_t it then sends (no segment per send). The raw rows
 * call the internal handles on the socket's native handle (read by reflection). The rows take turns, 41 runs each after
 * three warm-up runs; a difference is the median of the runs' differences within a turn, which cancels a drift of the
 * machine's speed between turns. Each row also gives the bytes its calls allocated (this thread's count, over the
 * measured runs).
 * <p>Usage: CallCost [--calls N]
 */
public final class CallCost {
    private CallCost() {
    }

    private static final int RUNS = 41;
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        int calls = 1_000_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int n = calls;
        int size = 64;
        try (Context context = new Context(); Socket pub = context.socket(SocketType.PUB); Arena arena = Arena.ofConfined()) {
            MemorySegment handle = Harness.nativeHandle(pub);
            MemorySegment state = arena.allocate(LibZmq.CALL_STATE_SIZE);
            MemorySegment segment = arena.allocate(size);
            MemorySegment msg = arena.allocate(LibZmq.MSG_SIZE);
            byte[] array = new byte[size];
            byte[] larger = new byte[size + 8];
            LibZmq.msgInitSize(msg, size);
            String[] names = {
                "zmq_msg_data, critical (a downcall alone)",
                "zmq_send, ordinary (libzmq's send)",
                "zmq_send, ordinary capturing errno (+ the capture)",
                "zmq_send, critical (- the transition)",
                "Socket.send(MemorySegment) (+ claim, binding)",
                "Socket.send(byte[]) (a heap segment)",
                "Socket.send(byte[], 8, 64) (a range: a native copy)",
            };
            // Each row writes its own loop out: one loop calling each row's call through an interface would add a
            // call of its own to every measured one.
            LongSupplier[] rows = {
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += LibZmq.msgDataAddress(msg);
                    }
                    return x;
                },
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += LibZmq.send(LibZmq.CALL_ORDINARY, state, handle, segment, size, 0);
                    }
                    return x;
                },
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += LibZmq.send(LibZmq.CALL_CAPTURING, state, handle, segment, size, 0);
                    }
                    return x;
                },
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += LibZmq.send(LibZmq.CALL_CRITICAL, state, handle, segment, size, 0);
                    }
                    return x;
                },
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += pub.send(segment, SendFlags.NONE) ? 1 : 0;
                    }
                    return x;
                },
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += pub.send(array, SendFlags.NONE) ? 1 : 0;
                    }
                    return x;
                },
                () -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += pub.send(larger, 8, size, SendFlags.NONE) ? 1 : 0;
                    }
                    return x;
                },
            };
            // The row each row is compared with (-1: none).
            int[] base = {-1, -1, 1, 1, 3, 4, 5};
            long[][] nanos = new long[rows.length][RUNS];
            long[] allocated = new long[rows.length];
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int run = -3; run < RUNS; run++) { // three warm-up runs
                for (int r = 0; r < rows.length; r++) {
                    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
                    long start = System.nanoTime();
                    sink += rows[r].getAsLong();
                    if (run >= 0) {
                        nanos[r][run] = System.nanoTime() - start;
                        allocated[r] += threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
                    }
                }
            }
            LibZmq.msgClose(msg);
            System.out.printf("%d B, ns per call: median of %d runs of %d calls (min), the median of the runs' differences from the row it adds to, and bytes allocated per call%n", size, RUNS, n);
            for (int r = 0; r < rows.length; r++) {
                String added = "";
                if (base[r] >= 0) {
                    long[] differences = new long[RUNS];
                    for (int run = 0; run < RUNS; run++) {
                        differences[run] = nanos[r][run] - nanos[base[r]][run];
                    }
                    added = String.format("  %+.1f", median(differences) / n);
                }
                System.out.printf("  %-52s %6.1f  (%.1f)%7s  %.1f B%n", names[r], median(nanos[r]) / n, Arrays.stream(nanos[r]).min().orElseThrow() / (double) n, added,
                        (double) allocated[r] / RUNS / n);
            }
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

}
