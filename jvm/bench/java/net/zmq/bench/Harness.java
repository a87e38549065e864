package net.zmq.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.Semaphore;

/**
 * A small stand-in for JMH (which Debian does not package): a fixed number of warm-up operations, then measured ones,
 * each timed with System.nanoTime; the bytes the two calling threads allocated during the measured operations
 * (com.sun.management.ThreadMXBean), divided per message. Unlike JMH it runs everything in this one JVM (no fork per
 * benchmark, so one benchmark's JIT profile can affect the next; the suite interleaves to spread that), has no
 * blackhole (the loops consume every result through libzmq calls), and reports medians with min-max rather than a
 * Student-t error.
 */
final class Harness {
    private Harness() {
    }

    static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A measured result: nanoseconds per operation for each measured run, and bytes allocated per message. */
    record Result(long[] nanos, double allocatedPerMessage) {
        double medianNanos() {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        }

        long min() {
            return Arrays.stream(nanos).min().orElseThrow();
        }

        long max() {
            return Arrays.stream(nanos).max().orElseThrow();
        }
    }

    /** A platform thread that runs one send round per {@link #start()}, for the sending side of a benchmark. */
    static final class Sender implements AutoCloseable {
        private final Semaphore go = new Semaphore(0);
        private final Semaphore done = new Semaphore(0);
        private final Thread thread;
        private volatile boolean stop;
        private volatile Throwable failure;

        Sender(Runnable round) {
            thread = Thread.ofPlatform().daemon().name("bench-sender").start(() -> {
                while (true) {
                    go.acquireUninterruptibly();
                    if (stop) {
                        return;
                    }
                    try {
                        round.run();
                    } catch (Throwable t) {
                        failure = t;
                    }
                    done.release();
                }
            });
        }

        long threadId() {
            return thread.threadId();
        }

        void start() {
            go.release();
        }

        void await() {
            done.acquireUninterruptibly();
            if (failure != null) {
                throw new IllegalStateException("the sender failed", failure);
            }
        }

        @Override
        public void close() {
            stop = true;
            go.release();
        }
    }

    /** Runs op (one operation = messages messages) warmups + iterations times, measuring the last iterations. */
    static Result measure(Runnable op, Sender sender, int messages, int warmups, int iterations) {
        for (int i = 0; i < warmups; i++) {
            op.run();
        }
        long[] nanos = new long[iterations];
        long self = Thread.currentThread().threadId();
        long allocatedBefore = THREADS.getThreadAllocatedBytes(self) + (sender == null ? 0 : THREADS.getThreadAllocatedBytes(sender.threadId()));
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            op.run();
            nanos[i] = System.nanoTime() - start;
        }
        long allocatedAfter = THREADS.getThreadAllocatedBytes(self) + (sender == null ? 0 : THREADS.getThreadAllocatedBytes(sender.threadId()));
        return new Result(nanos, (allocatedAfter - allocatedBefore) / (double) ((long) messages * iterations));
    }
}
