package net.zmq.bench;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import net.zmq.Socket;

/**
 * A small stand-in for JMH (which Debian does not package): warm-up rounds until the JIT compilers are quiet, then
 * measured operations, each timed with System.nanoTime; the bytes the two calling threads allocated during the measured operations
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

    /**
     * A platform thread that runs one send round per {@link #start()}, for the sending side of a benchmark.
     *
     * <p>Invariant: {@code started - finished} is 0 (idle) or 1 (a round asked for or running); only the caller of
     * {@link #start} and {@link #await} moves {@code started}, only the sender thread moves {@code finished}. Both
     * sides wait with {@link LockSupport#park}, which allocates nothing: a Semaphore's wait allocates a queue node,
     * which would count in the allocation figures of the two threads measured.
     */
    /** The options the loop diagnostics share: --size N (64 by default), --rounds N, --native &lt;zmq_native_bench&gt; (or null). */
    record LoopOptions(int size, int rounds, String nativeBench) {
        static LoopOptions parse(String[] args, int defaultRounds) {
            int size = 64;
            int rounds = defaultRounds;
            String nativeBench = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--size" -> size = Integer.parseInt(args[++i]);
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    case "--native" -> nativeBench = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new LoopOptions(size, rounds, nativeBench);
        }
    }

    static final class Sender implements AutoCloseable {
        private final Thread thread;
        private volatile long started;
        private volatile long finished;
        /** The thread in {@link #await}, for the sender to wake. */
        private volatile Thread waiter;
        private volatile boolean stop;

        Sender(Runnable round) {
            this("bench-sender", round);
        }

        Sender(String name, Runnable round) {
            thread = Thread.ofPlatform().daemon().name(name).start(() -> {
                long done = 0;
                while (true) {
                    while (started == done && !stop) {
                        LockSupport.park(this);
                    }
                    if (stop) {
                        return;
                    }
                    try {
                        round.run();
                    } catch (Throwable t) {
                        // The receiving side waits in a blocking receive for frames that will never come: end the
                        // process rather than hang (the interleaved phase's parent then reports the child's failure).
                        System.err.println("bench: thread " + Thread.currentThread().getName()
                                + " failed, so the thread waiting for its frames would wait forever; exiting");
                        t.printStackTrace();
                        Runtime.getRuntime().halt(1);
                    }
                    finished = ++done;
                    Thread w = waiter; // read after the write above; await writes waiter, then reads finished
                    if (w != null) {
                        LockSupport.unpark(w);
                    }
                }
            });
        }

        long threadId() {
            return thread.threadId();
        }

        void start() {
            long s = started;
            assert s == finished : "start() while a round is running";
            started = s + 1;
            LockSupport.unpark(thread);
        }

        void await() {
            waiter = Thread.currentThread();
            while (finished != started) {
                LockSupport.park(this);
            }
            waiter = null;
        }

        @Override
        public void close() {
            stop = true;
            LockSupport.unpark(thread);
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

    private static final java.lang.management.CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
    /** A warm-up round that compiled at most this long leaves the JIT quiet enough to measure. */
    static final long QUIET_COMPILATION_MS = 2;
    /** How many such rounds in a row end the warm-up (compilation comes in bursts as counters cross thresholds). */
    static final int QUIET_ROUNDS = 3;
    /** The most warm-up rounds run while waiting for the JIT to go quiet. */
    static final int MAX_WARMUPS = 40;

    /** Milliseconds the JIT compilers have spent so far (0 where the JVM does not count it). */
    static long compilationMillis() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
    }

    /**
     * Runs round at least min times, then until {@link #QUIET_ROUNDS} rounds in a row each compiled no more than
     * {@link #QUIET_COMPILATION_MS} (at most {@link #MAX_WARMUPS} rounds): compiler threads still at work would take a
     * core from what is measured next. Returns the number of rounds run.
     */
    static int warmUp(Runnable round, int min) {
        return warmUp(round, min, Harness::compilationMillis);
    }

    /** As {@link #warmUp(Runnable, int)}, with the compilation time of every JVM the round runs in (compiledMillis). */
    static int warmUp(Runnable round, int min, LongSupplier compiledMillis) {
        int done = 0;
        int quiet = 0;
        while (true) {
            long before = compiledMillis.getAsLong();
            round.run();
            done++;
            quiet = compiledMillis.getAsLong() - before <= QUIET_COMPILATION_MS ? quiet + 1 : 0;
            if (done >= MAX_WARMUPS || (done >= min && quiet >= QUIET_ROUNDS)) {
                return done;
            }
        }
    }

    /**
     * Runs every benchmark in warm-up rounds (at least warmups, then until the JIT is quiet: {@link #warmUp}), then
     * iterations rounds of one measured operation each, taking turns (every other round in reverse order), so a change
     * in the machine's load falls on all of them alike. Allocation is counted around each measured operation.
     */
    static List<Benchmark> measureInterleaved(List<Benchmark> benchmarks, int messages, int warmups, int iterations) {
        warmUp(() -> {
            for (Benchmark b : benchmarks) {
                b.op.run();
            }
        }, warmups);
        long[][] nanos = new long[benchmarks.size()][iterations];
        long[] allocated = new long[benchmarks.size()];
        for (int i = 0; i < iterations; i++) {
            for (int j = 0; j < benchmarks.size(); j++) {
                // Every other round in reverse order, so that no row always runs right after the same other row.
                int k = i % 2 == 0 ? j : benchmarks.size() - 1 - j;
                Benchmark b = benchmarks.get(k);
                long before = allocatedBytes(b.sender);
                long start = System.nanoTime();
                b.op.run();
                nanos[k][i] = System.nanoTime() - start;
                allocated[k] += allocatedBytes(b.sender) - before;
            }
        }
        for (int k = 0; k < benchmarks.size(); k++) {
            benchmarks.get(k).result = new Result(nanos[k], allocated[k] / (double) ((long) messages * iterations));
        }
        return benchmarks;
    }

    /** Bytes allocated so far by the calling thread (a benchmark's receiver) and sender's thread. */
    static long allocatedBytes(Sender sender) {
        return THREADS.getCurrentThreadAllocatedBytes() + THREADS.getThreadAllocatedBytes(sender.threadId());
    }

    /**
     * The socket's libzmq handle (Socket.core.handle), for diagnostics that call libzmq straight through the binding's
     * downcall handles: read by reflection, which works because the benchmarks run the binding on the class path.
     */
    static MemorySegment nativeHandle(Socket socket) throws ReflectiveOperationException {
        Field core = Socket.class.getDeclaredField("core");
        core.setAccessible(true);
        Object c = core.get(socket);
        Field handle = c.getClass().getDeclaredField("handle");
        handle.setAccessible(true);
        return (MemorySegment) handle.get(c);
    }
}
