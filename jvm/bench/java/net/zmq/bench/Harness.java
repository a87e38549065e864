package net.zmq.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
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

    /** A named operation (messages messages) and its sender thread, with the result once measured. */
    static final class Benchmark {
        private final String name;
        private final Sender sender;
        private final Runnable op;
        private Result result;

        Benchmark(String name, Sender sender, Runnable op) {
            this.name = name;
            this.sender = sender;
            this.op = op;
        }

        String name() {
            return name;
        }

        Result result() {
            return result;
        }
    }

    /**
     * Runs every benchmark warmups times, then iterations rounds of one measured operation each, taking turns, so a
     * change in the machine's load falls on all of them alike. Allocation is counted around each measured operation.
     */
    static List<Benchmark> measureInterleaved(List<Benchmark> benchmarks, int messages, int warmups, int iterations) {
        for (int w = 0; w < warmups; w++) {
            for (Benchmark b : benchmarks) {
                b.op.run();
            }
        }
        long self = Thread.currentThread().threadId();
        long[][] nanos = new long[benchmarks.size()][iterations];
        long[] allocated = new long[benchmarks.size()];
        for (int i = 0; i < iterations; i++) {
            for (int k = 0; k < benchmarks.size(); k++) {
                Benchmark b = benchmarks.get(k);
                long before = THREADS.getThreadAllocatedBytes(self) + THREADS.getThreadAllocatedBytes(b.sender.threadId());
                long start = System.nanoTime();
                b.op.run();
                nanos[k][i] = System.nanoTime() - start;
                allocated[k] += THREADS.getThreadAllocatedBytes(self) + THREADS.getThreadAllocatedBytes(b.sender.threadId()) - before;
            }
        }
        for (int k = 0; k < benchmarks.size(); k++) {
            benchmarks.get(k).result = new Result(nanos[k], allocated[k] / (double) ((long) messages * iterations));
        }
        return benchmarks;
    }
}
