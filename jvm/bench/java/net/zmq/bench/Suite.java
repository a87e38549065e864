package net.zmq.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import net.zmq.Context;
import net.zmq.Message;
import net.zmq.Poller;
import net.zmq.RecvFlags;
import net.zmq.SendFlags;
import net.zmq.Socket;

/**
 * The JVM benchmark suite, ROUTER to ROUTER over tcp at 64 B, 512 B, 1 KB and 64 KB, 10,000 messages per operation:
 * first, while no zero-copy message exists in the process, the cost of one call and an interleaved phase that
 * alternates the native C baseline, this binding and JeroMQ (in a JVM of its own: {@link JeroServe}) on the same loop;
 * then the first JVM-ZMQ's two suites
 * (memory strategies, receive modes) and the zero-copy send against a copying one in pairs. Writes
 * benchmarks/results/latest-jvm.md.
 * <p>Usage: Suite --native &lt;zmq_native_bench&gt; --results &lt;dir&gt; [--quick] [--interleaved-only | --zero-copy-only]
 * [--rounds N] (the one phase alone, N rounds, printed, no report written) [--processes N] (the interleaved phase in N
 * fresh JVMs, {@link InterleavedProcesses}; 0 runs it in this one) [--small-rounds N] [--large-rounds N] (its rounds
 * per process below 64 KB and at 64 KB) [--raw] (with --processes 0: print its times for a parent)
 */
public final class Suite {
    static final int MESSAGES = 10_000;
    static final int[] SIZES = {64, 512, 1024, 65536};
    private static final PooledByteBufAllocator POOL = PooledByteBufAllocator.DEFAULT;

    private int warmups = 3;
    private int iterations = 7;
    /**
     * The interleaved phase's processes, and its rounds per size in each: more below 64 KB, where a round takes tens of
     * milliseconds and the ratios spread widest (a 64 KB round takes about twenty times as long).
     */
    private int processes = 20;
    private int smallRounds = 20;
    private int largeRounds = 5;
    private boolean raw;
    private int zeroCopyRounds = 41;
    private boolean interleavedOnly;
    private boolean zeroCopyOnly;

    public static void main(String[] args) throws Exception {
        String nativeBench = null;
        Path results = Path.of("benchmarks/results");
        Suite suite = new Suite();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--native" -> nativeBench = args[++i];
                case "--results" -> results = Path.of(args[++i]);
                case "--calls-only" -> {
                    double[] ns = callOverhead();
                    System.out.printf("calls %.2f %.2f%n", ns[0], ns[1]);
                    return;
                }
                case "--interleaved-only" -> suite.interleavedOnly = true;
                case "--zero-copy-only" -> suite.zeroCopyOnly = true;
                case "--pool-mib" -> NativeBufferPool.bytes = Long.parseLong(args[++i]) << 20;
                case "--rounds" -> suite.smallRounds = suite.largeRounds = suite.zeroCopyRounds = Integer.parseInt(args[++i]);
                case "--small-rounds" -> suite.smallRounds = Integer.parseInt(args[++i]);
                case "--large-rounds" -> suite.largeRounds = Integer.parseInt(args[++i]);
                case "--processes" -> suite.processes = Integer.parseInt(args[++i]);
                case "--raw" -> suite.raw = true;
                case "--quick" -> {
                    suite.warmups = 1;
                    suite.iterations = 3;
                    suite.smallRounds = suite.largeRounds = 3;
                    suite.processes = 2;
                    suite.zeroCopyRounds = 5;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (suite.processes == 1 || suite.processes < 0 || suite.processes == 0 && !suite.interleavedOnly) {
            throw new IllegalArgumentException("--processes takes 2 or more (an interval across processes needs two), "
                    + "or 0 with --interleaved-only (the phase in this JVM)");
        }
        if (Math.min(suite.smallRounds, Math.min(suite.largeRounds, suite.zeroCopyRounds)) < 2) {
            throw new IllegalArgumentException("--rounds, --small-rounds and --large-rounds take 2 or more (an interval needs two)");
        }
        suite.run(nativeBench, results);
    }

    // ---- memory strategies: the receiving loop in this thread, the sending loop on the sender thread

    interface Strategy {
        void send(Socket sender, int size, byte[] payload);

        void receive(Socket receiver, int size, byte[] id, byte[] buffer, Message reused);
    }

    static final Map<String, Strategy> STRATEGIES = new LinkedHashMap<>();

    static {
        STRATEGIES.put("ByteArray", new Strategy() {
            public void send(Socket s, int size, byte[] payload) {
                for (int n = 0; n < MESSAGES; n++) {
                    byte[] data = new byte[size];
                    data[0] = (byte) n;
                    s.send(RouterPair.RECEIVER_ID, SendFlags.SEND_MORE);
                    s.send(data, SendFlags.NONE);
                }
            }

            public void receive(Socket r, int size, byte[] id, byte[] buffer, Message reused) {
                for (int n = 0; n < MESSAGES; n++) {
                    r.recv(id);
                    r.recv(new byte[size]);
                }
            }
        });
        STRATEGIES.put("ArrayPool (Netty pooled)", new Strategy() {
            public void send(Socket s, int size, byte[] payload) {
                for (int n = 0; n < MESSAGES; n++) {
                    ByteBuf buf = POOL.heapBuffer(size);
                    buf.array()[buf.arrayOffset()] = (byte) n;
                    s.send(RouterPair.RECEIVER_ID, SendFlags.SEND_MORE);
                    s.send(buf.array(), buf.arrayOffset(), size, SendFlags.NONE);
                    buf.release();
                }
            }

            public void receive(Socket r, int size, byte[] id, byte[] buffer, Message reused) {
                for (int n = 0; n < MESSAGES; n++) {
                    r.recv(id);
                    ByteBuf buf = POOL.heapBuffer(size);
                    r.recv(buf.array(), buf.arrayOffset(), size, RecvFlags.NONE);
                    buf.release();
                }
            }
        });
        STRATEGIES.put("Message", (NewMessages) (size, payload) -> new Message(payload)); // copies the payload in
        STRATEGIES.put("MessageZeroCopy", new NewMessages() {
            private final java.util.Map<Integer, NativeBufferPool> pools = new java.util.concurrent.ConcurrentHashMap<>();

            public Message create(int size, byte[] payload) { // no copy: libzmq sends the pooled buffer
                NativeBufferPool pool = pools.computeIfAbsent(size, n -> new NativeBufferPool(payload));
                return new Message(pool.take(), pool);
            }
        });
        STRATEGIES.put("MessageZeroCopy (malloc+copy each)", new NewMessages() {
            private final Message.FreeCallback free = net.zmq.internal.Native::free;

            public Message create(int size, byte[] payload) {
                MemorySegment data = net.zmq.internal.Native.malloc(size);
                MemorySegment.copy(MemorySegment.ofArray(payload), 0, data, 0, size);
                return new Message(data, free);
            }
        });
        STRATEGIES.put("ReusedBuffer", new Strategy() {
            public void send(Socket s, int size, byte[] payload) {
                sendReused(s, payload);
            }

            public void receive(Socket r, int size, byte[] id, byte[] buffer, Message reused) {
                for (int n = 0; n < MESSAGES; n++) {
                    r.recv(id);
                    r.recv(buffer);
                }
            }
        });
        STRATEGIES.put("ReusedMessage", new Strategy() {
            public void send(Socket s, int size, byte[] payload) {
                sendReused(s, payload);
            }

            public void receive(Socket r, int size, byte[] id, byte[] buffer, Message reused) {
                for (int n = 0; n < MESSAGES; n++) {
                    r.recv(id);
                    r.recv(reused, RecvFlags.NONE);
                }
            }
        });
    }

    /** A new Message per message on both sides: the sender's made by {@link #create}, the receiver's empty. */
    interface NewMessages extends Strategy {
        Message create(int size, byte[] payload);

        default void send(Socket s, int size, byte[] payload) {
            for (int n = 0; n < MESSAGES; n++) {
                try (Message m = create(size, payload)) {
                    s.send(RouterPair.RECEIVER_ID, SendFlags.SEND_MORE);
                    s.send(m, SendFlags.NONE);
                }
            }
        }

        default void receive(Socket r, int size, byte[] id, byte[] buffer, Message reused) {
            for (int n = 0; n < MESSAGES; n++) {
                r.recv(id);
                try (Message m = new Message()) {
                    r.recv(m, RecvFlags.NONE);
                }
            }
        }
    }

    static void sendReused(Socket s, byte[] payload) {
        for (int n = 0; n < MESSAGES; n++) {
            s.send(RouterPair.RECEIVER_ID, SendFlags.SEND_MORE);
            s.send(payload, SendFlags.NONE);
        }
    }

    // ---- receive modes (the sender sends one reused buffer)

    static final String[] MODES = {"PureBlocking", "BlockingBatch", "NonBlocking", "Poller"};

    static void receiveMode(String mode, Socket r, byte[] id, byte[] buffer, Poller poller) {
        int frames = 0;
        int total = 2 * MESSAGES;
        switch (mode) {
            case "PureBlocking" -> {
                while (frames < total) {
                    r.recv(frames % 2 == 0 ? id : buffer);
                    frames++;
                }
            }
            case "BlockingBatch" -> {
                while (frames < total) {
                    r.recv(frames % 2 == 0 ? id : buffer);
                    frames++;
                    while (frames < total && r.recv(frames % 2 == 0 ? id : buffer, RecvFlags.DONT_WAIT) >= 0) {
                        frames++;
                    }
                }
            }
            case "NonBlocking" -> {
                while (frames < total) {
                    if (r.recv(frames % 2 == 0 ? id : buffer, RecvFlags.DONT_WAIT) >= 0) {
                        frames++;
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
            case "Poller" -> {
                while (frames < total) {
                    poller.poll(null);
                    while (frames < total && r.recv(frames % 2 == 0 ? id : buffer, RecvFlags.DONT_WAIT) >= 0) {
                        frames++;
                    }
                }
            }
            default -> throw new IllegalArgumentException(mode);
        }
    }

    // ---- the suite

    record Row(String suite, String method, int size, Harness.Result result) {
    }

    private final List<Row> rows = new ArrayList<>();

    /** One object per message would be at least 16 B per message; a hundredth of a byte is 100 B in a 10,000-message operation. */
    private static String allocationVerdict(double bytesPerMessage) {
        return bytesPerMessage == 0 ? "met" : bytesPerMessage < 0.01 ? "met (under 100 B in an operation: nothing per message)" : "**not met**";
    }

    private void run(String nativeBench, Path results) throws Exception {
        long start = System.nanoTime();
        if (interleavedOnly && processes == 0) {
            List<Interleaved> phase = interleave(nativeBench);
            if (raw) {
                InterleavedProcesses.print(phase);
                return;
            }
            for (Interleaved i : phase) {
                System.out.printf("%6d B: JVM / native %.3f (medians), per round %.3f ± %.3f (%.2f–%.2f); C inside this JVM / native %.3f ± %.3f; JVM / C inside this JVM %.3f ± %.3f; JVM allocated %.3f B/msg%n",
                        i.size(), median(i.nativeNs()) / median(i.jvmNs()), i.mean(), i.halfInterval(), min(i.ratios()), max(i.ratios()),
                        mean(i.inJvmRatios()), halfInterval(i.inJvmRatios()), mean(i.jvmOverInJvm()), halfInterval(i.jvmOverInJvm()), i.allocatedPerMessage());
            }
            return;
        }
        if (interleavedOnly) {
            for (InterleavedProcesses.Spread spread : InterleavedProcesses.run(nativeBench, processes, smallRounds, largeRounds)) {
                Interleaved i = spread.pooled();
                double[] jvm = spread.perProcess(Interleaved::ratios);
                double[] inJvm = spread.perProcess(Interleaved::inJvmRatios);
                double[] left = spread.perProcess(Interleaved::jvmOverInJvm);
                System.out.printf("%6d B: JVM / native %.3f (medians), per process %.3f ± %.3f (%.2f–%.2f), per round %.3f ± %.3f; C inside this JVM / native per process %.3f ± %.3f; JVM / C inside this JVM per process %.3f ± %.3f; JVM allocated %.3f B/msg%n",
                        i.size(), median(i.nativeNs()) / median(i.jvmNs()), mean(jvm), halfInterval(jvm), min(jvm), max(jvm),
                        i.mean(), i.halfInterval(), mean(inJvm), halfInterval(inJvm), mean(left), halfInterval(left), i.allocatedPerMessage());
            }
            return;
        }
        if (zeroCopyOnly) {
            compareZeroCopy();
            return;
        }
        // First what must run while no zero-copy message exists in this process (the MessageZeroCopy rows below make
        // one, and from then on every send and receive uses the ordinary, transitioning calls: see jvm/README.md).
        double[] critical = callOverhead();
        double[] ordinary = callOverheadWithoutCritical();
        System.out.printf("calls: recv %.1f ns (critical) vs %.1f ns, send %.1f ns vs %.1f ns%n", critical[0], ordinary[0], critical[1], ordinary[1]);
        List<InterleavedProcesses.Spread> interleaved = InterleavedProcesses.run(nativeBench, processes, smallRounds, largeRounds);
        for (int size : SIZES) {
            byte[] payload = new byte[size];
            Arrays.fill(payload, (byte) 'x');
            List<Harness.Benchmark> memory = new ArrayList<>();
            List<Harness.Benchmark> receive = new ArrayList<>();
            List<AutoCloseable> resources = new ArrayList<>();
            try {
                for (String strategy : STRATEGIES.keySet()) {
                    memory.add(memoryBenchmark(strategy, size, payload, resources));
                }
                for (String mode : MODES) {
                    RouterPair pair = new RouterPair();
                    Poller poller = new Poller();
                    Harness.Sender sender = new Harness.Sender(() -> sendReused(pair.sender, payload));
                    resources.addAll(List.of(sender, poller, pair));
                    poller.add(pair.receiver, Poller.READABLE);
                    byte[] id = new byte[16];
                    byte[] buffer = new byte[size];
                    receive.add(new Harness.Benchmark(mode, sender, () -> {
                        sender.start();
                        receiveMode(mode, pair.receiver, id, buffer, poller);
                        sender.await();
                    }));
                }
                for (Harness.Benchmark b : Harness.measureInterleaved(memory, MESSAGES, warmups, iterations)) {
                    rows.add(new Row("memory", b.name(), size, b.result()));
                    progress("memory", b.name(), size, b.result());
                }
                for (Harness.Benchmark b : Harness.measureInterleaved(receive, MESSAGES, warmups, iterations)) {
                    rows.add(new Row("receive", b.name(), size, b.result()));
                    progress("receive", b.name(), size, b.result());
                }
            } finally {
                for (AutoCloseable resource : resources) {
                    resource.close();
                }
            }
        }
        List<Paired> zeroCopy = compareZeroCopy();
        write(results, interleaved, zeroCopy, critical, ordinary, (System.nanoTime() - start) / 1_000_000_000L);
    }

    /** One strategy's ROUTER pair and sender thread, as a benchmark whose operation is one loop of MESSAGES. */
    private static Harness.Benchmark memoryBenchmark(String name, int size, byte[] payload, List<AutoCloseable> resources) {
        Strategy strategy = STRATEGIES.get(name);
        RouterPair pair = new RouterPair();
        Message reused = new Message();
        Harness.Sender sender = new Harness.Sender(() -> strategy.send(pair.sender, size, payload));
        resources.addAll(List.of(sender, reused, pair));
        byte[] id = new byte[16];
        byte[] buffer = new byte[size];
        return new Harness.Benchmark(name, sender, () -> {
            sender.start();
            strategy.receive(pair.receiver, size, id, buffer, reused);
            sender.await();
        });
    }

    // ---- zero-copy against a copying Message send, in pairs

    /** One size's pairs: copyNs[r] and zeroNs[r] ran one after the other in round r (in either order); ratios[r] = zeroNs[r] / copyNs[r]. */
    record Paired(int size, long[] copyNs, long[] zeroNs, double[] ratios) {
    }

    /**
     * The Message and MessageZeroCopy loops taking turns for {@link #zeroCopyRounds} rounds per size: their ratio is
     * a target, and the memory table's seven medians per row leave it inside the machine's noise.
     */
    private List<Paired> compareZeroCopy() throws Exception {
        List<Paired> out = new ArrayList<>();
        for (int size : SIZES) {
            byte[] payload = new byte[size];
            Arrays.fill(payload, (byte) 'x');
            List<AutoCloseable> resources = new ArrayList<>();
            try {
                List<Harness.Benchmark> pair = List.of(memoryBenchmark("Message", size, payload, resources),
                        memoryBenchmark("MessageZeroCopy", size, payload, resources));
                Harness.measureInterleaved(pair, MESSAGES, warmups, zeroCopyRounds);
                long[] copy = pair.get(0).result().nanos();
                long[] zero = pair.get(1).result().nanos();
                double[] ratios = new double[zeroCopyRounds];
                for (int r = 0; r < zeroCopyRounds; r++) {
                    ratios[r] = zero[r] / (double) copy[r];
                }
                out.add(new Paired(size, copy, zero, ratios));
                System.out.printf("zero-copy %6d B: ZeroCopy / Message per round %.3f ± %.3f%n", size, mean(ratios), halfInterval(ratios));
            } finally {
                for (AutoCloseable resource : resources) {
                    resource.close();
                }
            }
        }
        return out;
    }

    static double min(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }

    static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }

    static double mean(double[] values) {
        return Arrays.stream(values).average().orElseThrow();
    }

    /** Half the width of the 95% confidence interval of the mean (Student's t, n - 1 degrees of freedom). */
    static double halfInterval(double[] values) {
        int n = values.length;
        double mean = mean(values);
        double variance = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / (n - 1);
        return studentT95(n - 1) * Math.sqrt(variance / n);
    }

    /**
     * The two-sided 95% quantile of Student's t: from the table up to 30 degrees of freedom, beyond that the first
     * Cornish-Fisher term over the normal's 1.96 (2.019 at 40, where the table has 2.021: the 41-round phase).
     */
    static double studentT95(int degreesOfFreedom) {
        double[] t = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
        if (degreesOfFreedom <= t.length) {
            return t[degreesOfFreedom - 1];
        }
        double z = 1.959964;
        return z + (z * z * z + z) / (4.0 * degreesOfFreedom);
    }

    private static void progress(String suite, String method, int size, Harness.Result r) {
        System.out.printf("%-8s %-26s %6d B  %8.2f ms/op  %6.2f B/msg%n", suite, method, size, r.medianNanos() / 1e6, r.allocatedPerMessage());
    }

    // ---- the cost of one call: a non-blocking receive and send that meet EAGAIN (nothing but the call itself)

    /** Nanoseconds per non-blocking recv and send that return EAGAIN, medians of 7 runs of 2,000,000 calls. */
    static double[] callOverhead() {
        try (Context context = new Context(); Socket pull = context.socket(net.zmq.SocketType.PULL);
             Socket push = context.socket(net.zmq.SocketType.PUSH)) {
            pull.bind("inproc://calls");
            byte[] buffer = new byte[64];
            double[] result = new double[2];
            for (int which = 0; which < 2; which++) {
                long[] runs = new long[7];
                for (int r = -3; r < runs.length; r++) { // three warm-up runs
                    long start = System.nanoTime();
                    for (int i = 0; i < 2_000_000; i++) {
                        if (which == 0 ? pull.recv(buffer, RecvFlags.DONT_WAIT) >= 0 : push.send(buffer, SendFlags.DONT_WAIT)) {
                            throw new IllegalStateException("a call that should meet EAGAIN did not");
                        }
                    }
                    if (r >= 0) {
                        runs[r] = System.nanoTime() - start;
                    }
                }
                result[which] = median(runs) / 2_000_000.0;
            }
            return result;
        }
    }

    /** The same in a child JVM started with -Dnet.zmq.critical=false: the ordinary (transitioning) handles. */
    static double[] callOverheadWithoutCritical() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dnet.zmq.critical=false",
                "-cp", System.getProperty("java.class.path"), Suite.class.getName(), "--calls-only")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new String(child.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        child.waitFor();
        String[] words = line.split(" ");
        return new double[] {Double.parseDouble(words[1]), Double.parseDouble(words[2])};
    }

    // ---- interleaved: native, JVM, native, JeroMQ, ... per size

    /**
     * One size's interleaved runs: in round r, the native runs 2r and 2r + 1 around jvmNs[r] and inJvmNs[r]. Throughput
     * ratios are time over time. jvmAllocated: the bytes the binding's two threads allocated in its measured runs.
     */
    record Interleaved(int size, long[] nativeNs, long[] jvmNs, long[] inJvmNs, long[] jeromqNs, int sharedWarmupRounds,
                       int warmupRounds, long compiledMs, long jvmAllocated) {
        /** Bytes the binding's loop allocated per message in its measured runs. */
        double allocatedPerMessage() {
            return jvmAllocated / (double) ((long) jvmNs.length * MESSAGES);
        }

        /** Per round, this binding's throughput over native C's (the mean of the two native runs around it). */
        double[] ratios() {
            return overNative(jvmNs);
        }

        /** Per round, the C loop inside this JVM over native C. */
        double[] inJvmRatios() {
            return overNative(inJvmNs);
        }

        /** Per round, this binding over the C loop inside this JVM. */
        double[] jvmOverInJvm() {
            double[] out = new double[jvmNs.length];
            for (int r = 0; r < out.length; r++) {
                out[r] = (double) inJvmNs[r] / jvmNs[r];
            }
            return out;
        }

        private double[] overNative(long[] ns) {
            double[] out = new double[ns.length];
            for (int r = 0; r < out.length; r++) {
                out[r] = (nativeNs[2 * r] + nativeNs[2 * r + 1]) / 2.0 / ns[r];
            }
            return out;
        }

        double halfInterval() {
            return Suite.halfInterval(ratios());
        }

        double mean() {
            return Suite.mean(ratios());
        }
    }

    /** Starts the native baseline's server mode ({@code zmq_native_bench serve}); read its "ready" with {@link #awaitReady}. */
    static Process startNative(String nativeBench) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(nativeBench, "serve");
        // Its rpath names the host's path to the bundled libzmq, which the root mounts elsewhere: point the loader at it.
        String rid = System.getProperty("os.arch").equals("aarch64") ? "linux-arm64" : "linux-x64";
        Path libDir = Path.of(nativeBench).toAbsolutePath().getParent().resolve(rid);
        builder.environment().put("LD_LIBRARY_PATH", libDir.toString());
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        return builder.start();
    }

    static void awaitReady(BufferedReader in) throws IOException {
        String ready = in.readLine();
        if (!"ready".equals(ready)) {
            throw new IllegalStateException("a serving process (the native baseline or JeroMQ's) did not start (said " + ready + ")");
        }
    }

    /** Starts JeroMQ's side of the interleaved phase in a JVM of its own ({@link JeroServe}); read its "ready" with {@link #awaitReady}. */
    private Process startJeroMQ() throws IOException {
        String sizes = String.join(",", Arrays.stream(SIZES).mapToObj(Integer::toString).toList());
        return new ProcessBuilder(InterleavedProcesses.javaCommand(JeroServe.class, "--warmups", Integer.toString(warmups),
                "--messages", Integer.toString(MESSAGES), "--sizes", sizes)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /**
     * The interleaved phase in this JVM, beside a native C process and JeroMQ's JVM, which it ends as it returns: with
     * "quit" when the phase ran to its end, else by force (a failure must not leave them running).
     */
    private List<Interleaved> interleave(String nativeBench) throws Exception {
        List<Process> servers = new ArrayList<>();
        boolean finished = false;
        try {
            servers.add(startNative(nativeBench));
            servers.add(startJeroMQ());
            List<Interleaved> out = interleave(nativeBench, servers.get(0), servers.get(1));
            finished = true;
            return out;
        } finally {
            for (Process server : servers) {
                if (!finished || !server.waitFor(1, TimeUnit.MINUTES)) {
                    server.destroyForcibly();
                }
                server.waitFor();
            }
        }
    }

    private List<Interleaved> interleave(String nativeBench, Process process, Process jeroProcess) throws Exception {
        List<Interleaved> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
             PrintWriter cmd = new PrintWriter(process.getOutputStream(), true, StandardCharsets.US_ASCII);
             BufferedReader jin = new BufferedReader(new InputStreamReader(jeroProcess.getInputStream(), StandardCharsets.US_ASCII));
             PrintWriter jcmd = new PrintWriter(jeroProcess.getOutputStream(), true, StandardCharsets.US_ASCII);
             InProcessC inJvm = InProcessC.beside(nativeBench)) {
            awaitReady(in);
            awaitReady(jin);
            List<AutoCloseable> resources = new ArrayList<>();
            try {
                Runnable[] jvmRuns = new Runnable[SIZES.length];
                Harness.Sender[] jvmSenders = new Harness.Sender[SIZES.length];
                LongSupplier[] jeromqRuns = new LongSupplier[SIZES.length];
                for (int k = 0; k < SIZES.length; k++) {
                    byte[] payload = new byte[SIZES[k]];
                    byte[] id = new byte[16];
                    byte[] buffer = new byte[SIZES[k]];
                    RouterPair pair = new RouterPair();
                    Harness.Sender sender = new Harness.Sender(() -> sendReused(pair.sender, payload));
                    resources.add(pair);
                    resources.add(sender);
                    jvmSenders[k] = sender;
                    jvmRuns[k] = () -> {
                        sender.start();
                        for (int n = 0; n < MESSAGES; n++) {
                            pair.receiver.recv(id);
                            pair.receiver.recv(buffer);
                        }
                        sender.await();
                    };
                    int size = SIZES[k];
                    jeromqRuns[k] = () -> nativeRun(jcmd, jin, size);
                }
                // Each size takes the code down other paths (recompiling what was compiled for the last): every size in
                // turn until the JIT compilers of both JVMs are quiet (JeroMQ's did so alone before it said it was
                // ready), before any size is measured.
                LongSupplier compiled = () -> Harness.compilationMillis() + compiledMillis(jcmd, jin);
                int sharedWarmup = Harness.warmUp(() -> {
                    for (int k = 0; k < SIZES.length; k++) {
                        jvmRuns[k].run();
                        jeromqRuns[k].getAsLong();
                    }
                }, warmups, compiled);
                for (int k = 0; k < SIZES.length; k++) {
                    int size = SIZES[k];
                    Runnable jvm = jvmRuns[k];
                    LongSupplier jeromq = jeromqRuns[k];
                    int warmed = Harness.warmUp(() -> {
                        nativeRun(cmd, in, size);
                        jvm.run();
                        inJvm.run(size, MESSAGES);
                        jeromq.getAsLong();
                    }, warmups, compiled);
                    long compiledBefore = compiled.getAsLong();
                    int sizeRounds = roundsAt(size);
                    long[] nat = new long[2 * sizeRounds];
                    long[] jv = new long[sizeRounds];
                    long[] cj = new long[sizeRounds];
                    long[] jm = new long[sizeRounds];
                    Harness.Sender jvmSender = jvmSenders[k];
                    long allocated = 0;
                    for (int r = 0; r < sizeRounds; r++) {
                        // The binding and the C loop inside this JVM between two runs of the C process, in turns first.
                        nat[2 * r] = nativeRun(cmd, in, size);
                        if (r % 2 == 1) {
                            cj[r] = inJvm.run(size, MESSAGES);
                        }
                        long allocatedBefore = Harness.allocatedBytes(jvmSender);
                        jv[r] = time(jvm);
                        allocated += Harness.allocatedBytes(jvmSender) - allocatedBefore;
                        if (r % 2 == 0) {
                            cj[r] = inJvm.run(size, MESSAGES);
                        }
                        nat[2 * r + 1] = nativeRun(cmd, in, size);
                        jm[r] = jeromq.getAsLong();
                    }
                    long compiledMs = compiled.getAsLong() - compiledBefore;
                    out.add(new Interleaved(size, nat, jv, cj, jm, sharedWarmup, warmed, compiledMs, allocated));
                    System.out.printf("interleaved %6d B: native %.2f ms, jvm %.2f ms, C inside the JVM %.2f ms, jeromq %.2f ms (%d + %d warm-up rounds, %d ms compiling while measured)%n", size,
                            median(nat) / 1e6, median(jv) / 1e6, median(cj) / 1e6, median(jm) / 1e6, sharedWarmup, warmed, compiledMs);
                }
            } finally {
                for (int i = resources.size() - 1; i >= 0; i--) { // each sender before its pair
                    resources.get(i).close();
                }
            }
            cmd.println("quit");
            jcmd.println("quit");
        }
        return out;
    }

    /** The milliseconds JeroMQ's process has spent compiling so far. */
    private static long compiledMillis(PrintWriter cmd, BufferedReader in) {
        cmd.println("compiled");
        return readNumber(in);
    }

    private int roundsAt(int size) {
        return size < 65536 ? smallRounds : largeRounds;
    }

    /** One timed run of a serving process (the native baseline or JeroMQ's): its nanoseconds, as it measured them. */
    static long nativeRun(PrintWriter cmd, BufferedReader in, int size) {
        cmd.println("throughput " + size + " " + MESSAGES);
        return readNumber(in);
    }

    /** A serving process's answer: one number on a line. */
    private static long readNumber(BufferedReader in) {
        try {
            String line = in.readLine();
            if (line == null) {
                throw new IllegalStateException("a serving process (the native baseline or JeroMQ's) exited");
            }
            return Long.parseLong(line.trim());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long time(Runnable op) {
        long start = System.nanoTime();
        op.run();
        return System.nanoTime() - start;
    }

    static double median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    // ---- report

    private void write(Path dir, List<InterleavedProcesses.Spread> interleaved, List<Paired> zeroCopy, double[] critical, double[] ordinary, long seconds) throws IOException {
        StringBuilder md = new StringBuilder();
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        String customizeThreshold = System.getProperty("java.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD");
        md.append("# Net.Zmq for the JVM: benchmark results\n\n");
        md.append("Written by `./build.sh bench` (the JVM step: `jvm/build.sh bench`) on ").append(when).append(" in ").append(seconds)
                .append(" s. ").append(Runtime.version()).append(" (").append(System.getProperty("java.vm.name")).append("), libzmq ")
                .append(Context.version()).append(" (the bundled build), JeroMQ 0.6.0, ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores. ROUTER to ROUTER over tcp://127.0.0.1, HWM 0, ").append(MESSAGES)
                .append(" two-frame messages (routing id + payload) per operation, the sender on its own platform thread.\n");
        md.append("Harness: at least ").append(warmups).append(" warm-up rounds, then more until ").append(Harness.QUIET_ROUNDS)
                .append(" rounds in a row leave the JIT compilers quiet (at most ").append(Harness.QUIET_COMPILATION_MS).append(" ms compiling in each; ")
                .append(Harness.MAX_WARMUPS).append(" rounds at most: a compiler thread still at work takes one of the two cores from what is measured), and ").append(iterations)
                .append(" measured operations per row, the rows of a table and size taking turns (one operation of each, then the next round) so that a change in the machine's load falls on all of them (no JMH: see jvm/README.md); allocation = bytes allocated by the sending and the receiving thread during the measured operations, per message")
                .append(customizeThreshold == null ? "" : " (the JVM started with -Djava.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD="
                        + customizeThreshold + ": the JVM customises a downcall handle, about 64 KB allocated once, at its first call rather than after 127 calls from interpreted code, which a deoptimisation can push into any measured round)")
                .append(".\n\n");

        md.append("## Beside native C and JeroMQ (interleaved)\n\n");
        md.append("The phase runs in ").append(processes).append(" fresh JVMs one after the other, each with its own C process, its own JVM for JeroMQ (as JMH forks one per benchmark: JeroMQ's code, threads and garbage share nothing with this binding's process; it warms itself up at every size in turn until its JIT is quiet) and ").append(smallRounds)
                .append(" rounds per size below 64 KB, ").append(largeRounds).append(" at 64 KB (a 64 KB round takes about twenty times as long), after its warm-up rounds (as above, until the JIT compilers of both JVMs are quiet: first this binding and JeroMQ at every size in turn, so that no size's measured rounds recompile what another size's paths deoptimised, then the size's own rounds; their numbers over the processes and the JIT compilation time that still fell in the measured rounds, both JVMs' summed, are the last two columns). ")
                .append("Each round runs the native C baseline (`zmq_native_bench serve`, same libzmq), this binding (reused buffer; measured before any zero-copy message exists in the process, so with the critical calls) and the same C loop inside this JVM (next section; the two in turns first), the native baseline again, then JeroMQ (each serving process times its own run). ")
                .append("Throughput ratio = native time / other time (1.00 = as fast as C; above 1 = faster); medians over every round of every process. Per round, the JVM run is compared with the mean of the two native runs around it. Per process: the mean of its rounds' ratios; across the processes, the mean of those with its 95% confidence interval (Student's t, ")
                .append(processes - 1).append(" degrees of freedom) and the lowest and highest process. A process's rounds share its threads' placement, memory layout and JIT decisions, so they vary less than processes do: the per-process interval is the one that covers a new run; the per-round one, over all rounds, is given beside it.\n\n");
        md.append("| Size | Native C msg/s | JVM msg/s | JVM / native (medians) | per process: mean ± 95% | processes: min–max | per round: mean ± 95% | JeroMQ msg/s | JeroMQ / native | JVM / JeroMQ | Warm-up rounds | JIT while measured |\n");
        md.append("|-----:|---------------:|----------:|-----------------------:|------------------------:|-------------------:|----------------------:|-------------:|----------------:|-------------:|---------------:|-------------------:|\n");
        for (InterleavedProcesses.Spread spread : interleaved) {
            Interleaved i = spread.pooled();
            double[] perProcess = spread.perProcess(Interleaved::ratios);
            double nat = median(i.nativeNs());
            double jv = median(i.jvmNs());
            double jm = median(i.jeromqNs());
            md.append(String.format("| %s | %s | %s | %.2f | %.2f ± %.2f | %.2f–%.2f | %.2f ± %.2f | %s | %.2f | %.2f | %s | %d ms |%n", size(i.size()), rate(nat), rate(jv),
                    nat / jv, mean(perProcess), halfInterval(perProcess), min(perProcess), max(perProcess), i.mean(), i.halfInterval(),
                    rate(jm), nat / jm, jm / jv, spread.warmupRounds(), i.compiledMs()));
        }

        md.append("\n## The C loop inside this JVM\n\n");
        md.append("The native baseline's loop, C's own code and pthreads, built as a library (`libzmq_native_bench.so`) and run inside this JVM's process by one downcall per run, in the rounds above. ")
                .append("Its ratio to the same loop in its own process is what the JVM's process costs C itself (its threads, its memory, the scheduling of two cores); the binding's ratio to it is what is left for the binding's calls. Per process, as above: mean ± 95% across the processes, and the lowest and highest process.\n\n");
        md.append("| Size | C, own process msg/s | C inside this JVM msg/s | C inside this JVM / own process | processes: min–max | JVM / C inside this JVM | processes: min–max |\n");
        md.append("|-----:|---------------------:|------------------------:|--------------------------------:|-------------------:|------------------------:|-------------------:|\n");
        for (InterleavedProcesses.Spread spread : interleaved) {
            Interleaved i = spread.pooled();
            double[] inJvm = spread.perProcess(Interleaved::inJvmRatios);
            double[] left = spread.perProcess(Interleaved::jvmOverInJvm);
            md.append(String.format("| %s | %s | %s | %.2f ± %.2f | %.2f–%.2f | %.2f ± %.2f | %.2f–%.2f |%n", size(i.size()), rate(median(i.nativeNs())), rate(median(i.inJvmNs())),
                    mean(inJvm), halfInterval(inJvm), min(inJvm), max(inJvm), mean(left), halfInterval(left), min(left), max(left)));
        }

        for (String suite : new String[] {"memory", "receive"}) {
            md.append(suite.equals("memory") ? "\n## Memory strategies\n\nBlocking receive per frame. ByteArray: a new array per message on both sides; ArrayPool: Netty's PooledByteBufAllocator heap buffers; Message: a new Message per message on both sides, the sender copying the payload in (a copying Message send); MessageZeroCopy: the payload already sits in a fixed pool of native buffers, each sent without a copy in a new zero-copy Message whose free callback (one upcall stub for the process) returns the buffer to the pool (when all are in flight the sender waits for half of them to come back); MessageZeroCopy (malloc+copy each): the first JVM-ZMQ's benchmark report's shape, native memory malloc'd and filled per message, freed by the callback; ReusedBuffer: one array per side; ReusedMessage: the receiver reuses one Message. These tables are measured after the interleaved phase, in a process where the MessageZeroCopy rows have made zero-copy messages, so every row here uses the ordinary (transitioning) send and receive calls, not the critical ones.\n\n"
                    : "\n## Receive modes\n\nOrdinary calls, as above. The sender sends one reused buffer. PureBlocking: a blocking receive per frame; BlockingBatch: one blocking receive, then non-blocking ones until EAGAIN; NonBlocking: non-blocking receives, spinning on EAGAIN; Poller: zmq_poll, then non-blocking receives until EAGAIN.\n\n");
            md.append("| Method | Size | Mean per op | Median per op | Min–max | msg/s | Ratio | Allocated / msg |\n");
            md.append("|--------|-----:|------------:|--------------:|--------:|------:|------:|----------------:|\n");
            for (int size : SIZES) {
                Double baseline = null;
                for (Row row : rows) {
                    if (!row.suite().equals(suite) || row.size() != size) {
                        continue;
                    }
                    Harness.Result r = row.result();
                    double median = r.medianNanos();
                    if (baseline == null) {
                        baseline = median;
                    }
                    double mean = Arrays.stream(r.nanos()).average().orElseThrow();
                    md.append(String.format("| %s | %s | %.2f ms | %.2f ms | %.2f–%.2f ms | %s | %.2f | %.1f B |%n", row.method(), size(size),
                            mean / 1e6, median / 1e6, r.min() / 1e6, r.max() / 1e6, rate(median), median / baseline, r.allocatedPerMessage()));
                }
            }
        }
        md.append("\nRatio: median time relative to the first row of the same size (ByteArray, PureBlocking); below 1 is faster.\n");

        md.append("\n## Zero-copy against a copying Message send\n\nThe Message and MessageZeroCopy loops of the memory table, in a pair of ROUTER pairs of their own, taking turns for ")
                .append(zeroCopyRounds).append(" rounds per size after the warm-up; per round, the zero-copy loop's time over the copying loop's (the two run one after the other, in alternating order): the mean of those ratios with its 95% confidence interval (below 1: the zero-copy send is faster). The pool holds ")
                .append(NativeBufferPool.bytes >> 20).append(" MiB of buffers, at most one operation's worth (64 KB: ").append(NativeBufferPool.buffers(65536))
                .append(" buffers); when all are in flight the sender waits for half of them to come back.\n\n");
        md.append("| Size | Message (median) | MessageZeroCopy (median) | ZeroCopy / Message per round: mean ± 95% | min–max |\n|-----:|--------:|----------------:|-------------------:|--------:|\n");
        for (Paired p : zeroCopy) {
            md.append(String.format("| %s | %.2f ms | %.2f ms | %.2f ± %.2f | %.2f–%.2f |%n", size(p.size()), median(p.copyNs()) / 1e6, median(p.zeroNs()) / 1e6,
                    mean(p.ratios()), halfInterval(p.ratios()), min(p.ratios()), max(p.ratios())));
        }
        md.append("\n## Targets\n\n");
        for (InterleavedProcesses.Spread spread : interleaved) {
            if (spread.size() == 64 || spread.size() == 1024) {
                Interleaved i = spread.pooled();
                double ratio = median(i.nativeNs()) / median(i.jvmNs());
                double[] perProcess = spread.perProcess(Interleaved::ratios);
                double[] inJvm = spread.perProcess(Interleaved::inJvmRatios);
                double[] left = spread.perProcess(Interleaved::jvmOverInJvm);
                // Judged by the interval across processes, which covers a new run: the medians of one run move by more.
                double low = mean(perProcess) - halfInterval(perProcess);
                double high = mean(perProcess) + halfInterval(perProcess);
                String verdict = low >= 0.95 ? "met (the whole interval across processes at or above it)"
                        : high < 0.95 ? "**not met** (the whole interval across processes below it)"
                        : "**not settled** (the interval across processes holds 0.95)";
                md.append(String.format("- Reused buffer at %s (target ≥ 0.95× native C): %s. Per process %.2f ± %.2f (%.2f–%.2f), the medians %.3f; the C loop inside this JVM %.2f ± %.2f of C in its own process, and this binding %.2f ± %.2f of that.%n",
                        size(i.size()), verdict, mean(perProcess), halfInterval(perProcess), min(perProcess), max(perProcess), ratio,
                        mean(inJvm), halfInterval(inJvm), mean(left), halfInterval(left)));
            }
        }
        double worstAlloc = rows.stream().filter(r -> r.method().startsWith("Reused") || r.suite().equals("receive"))
                .mapToDouble(r -> r.result().allocatedPerMessage()).max().orElse(0);
        double worstCriticalAlloc = interleaved.stream().flatMap(spread -> spread.runs().stream())
                .mapToDouble(Interleaved::allocatedPerMessage).max().orElse(0);
        md.append(String.format("- Allocation on the reused-buffer path with the critical calls (the binding's loop in the interleaved phase, every process and size): at most %.3f B per message (target 0): %s.%n",
                worstCriticalAlloc, allocationVerdict(worstCriticalAlloc)));
        md.append(String.format("- Allocation on the reused-buffer and reused-Message paths with the ordinary calls (and every receive mode): at most %.3f B per message (target 0): %s.%n",
                worstAlloc, allocationVerdict(worstAlloc)));
        Paired small = zeroCopy.stream().filter(p -> p.size() == 64).findFirst().orElseThrow();
        Paired large = zeroCopy.stream().filter(p -> p.size() == 65536).findFirst().orElseThrow();
        double zc64 = mean(small.ratios());
        double zc64k = mean(large.ratios());
        double zc64kHigh = zc64k + halfInterval(large.ratios());
        md.append(String.format("- Zero-copy at 64 B: %.2f× a copying Message send (target ≤ 1.2): %s; at 64 KB: %.2f× (target < 1, here: the whole 95%% interval below 1, its top %.2f): %s.%n",
                zc64, zc64 <= 1.2 ? "met" : "**not met**", zc64k, zc64kHigh, zc64kHigh < 1 ? "met" : "**not met**"));
        for (InterleavedProcesses.Spread spread : interleaved) {
            Interleaved i = spread.pooled();
            md.append(String.format("- JeroMQ at %s: this binding is %.2f× JeroMQ's throughput.%n", size(i.size()), median(i.jeromqNs()) / median(i.jvmNs())));
        }

        md.append("\n## Critical downcalls\n\nA non-blocking receive and send that meet EAGAIN (the call and the binding around it, nothing queued), ")
                .append("median of 7 runs of 2,000,000 calls: with the critical handles the binding uses while no zero-copy message exists, and in a child JVM ")
                .append("started with `-Dnet.zmq.critical=false` (ordinary handles, a thread-state transition each way).\n\n");
        md.append("| Call | Critical | Ordinary | Saved |\n|------|---------:|---------:|------:|\n");
        md.append(String.format("| recv (DONT_WAIT, EAGAIN) | %.1f ns | %.1f ns | %.1f ns |%n", critical[0], ordinary[0], ordinary[0] - critical[0]));
        md.append(String.format("| send (DONT_WAIT, EAGAIN) | %.1f ns | %.1f ns | %.1f ns |%n", critical[1], ordinary[1], ordinary[1] - critical[1]));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("latest-jvm.md"), md.toString());
        System.out.println("wrote " + dir.resolve("latest-jvm.md"));
    }

    private static String rate(double nanosPerOp) {
        double perSecond = MESSAGES / (nanosPerOp / 1e9);
        return perSecond >= 1e6 ? String.format("%.2f M", perSecond / 1e6) : String.format("%.1f K", perSecond / 1e3);
    }

    private static String size(int bytes) {
        return bytes >= 1024 ? (bytes / 1024) + " KB" : bytes + " B";
    }
}
