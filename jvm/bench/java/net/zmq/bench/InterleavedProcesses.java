package net.zmq.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * The interleaved phase run in several fresh JVMs, one after the other, each with its own C process. Within one
 * process the rounds share its threads' placement, its memory layout and its JIT's decisions, so they vary less than
 * processes do: two runs of the same phase can differ by more than either's per-round interval. Here each process
 * gives one mean per ratio, and the interval across processes (Student's t, processes - 1 degrees of freedom) covers
 * that spread.
 */
final class InterleavedProcesses {
    private InterleavedProcesses() {
    }

    private static final String RAW = "raw ";
    /** Far beyond a child's run (about half a minute here). */
    private static final Duration CHILD_LIMIT = Duration.ofMinutes(10);

    /** One size's runs, one per process in the order they ran. */
    record Spread(int size, List<Suite.Interleaved> runs) {
        /** Every process's rounds as one run (each native pair stays with its round). */
        Suite.Interleaved pooled() {
            return new Suite.Interleaved(size, concat(Suite.Interleaved::nativeNs), concat(Suite.Interleaved::jvmNs),
                    concat(Suite.Interleaved::inJvmNs), concat(Suite.Interleaved::jeromqNs), 0, 0,
                    runs.stream().mapToLong(Suite.Interleaved::compiledMs).sum(), runs.stream().mapToLong(Suite.Interleaved::jvmAllocated).sum());
        }

        private long[] concat(Function<Suite.Interleaved, long[]> part) {
            return runs.stream().flatMapToLong(i -> LongStream.of(part.apply(i))).toArray();
        }

        /** Per process, the mean of its per-round ratios of one kind. */
        double[] perProcess(Function<Suite.Interleaved, double[]> ratios) {
            return runs.stream().mapToDouble(i -> Suite.mean(ratios.apply(i))).toArray();
        }

        /** "a–b" (or "a") over the processes: their warm-up rounds, shared then the size's own. */
        String warmupRounds() {
            return range(runs.stream().mapToInt(Suite.Interleaved::sharedWarmupRounds)) + " + "
                    + range(runs.stream().mapToInt(Suite.Interleaved::warmupRounds));
        }

        private static String range(IntStream values) {
            int[] v = values.sorted().toArray();
            return v[0] == v[v.length - 1] ? Integer.toString(v[0]) : v[0] + "–" + v[v.length - 1];
        }
    }

    /** Prints a child's phase for its parent: one line per size. */
    static void print(List<Suite.Interleaved> phase) {
        for (Suite.Interleaved i : phase) {
            StringBuilder line = new StringBuilder(RAW).append(i.size()).append(' ').append(i.sharedWarmupRounds()).append(' ')
                    .append(i.warmupRounds()).append(' ').append(i.compiledMs()).append(' ').append(i.jvmAllocated()).append(' ')
                    .append(i.jvmNs().length);
            for (long[] part : List.of(i.nativeNs(), i.jvmNs(), i.inJvmNs(), i.jeromqNs())) {
                for (long ns : part) {
                    line.append(' ').append(ns);
                }
            }
            System.out.println(line);
        }
    }

    private static Suite.Interleaved parse(String line) {
        long[] v = Arrays.stream(line.substring(RAW.length()).split(" ")).mapToLong(Long::parseLong).toArray();
        int rounds = (int) v[5];
        int at = 6;
        long[] nat = Arrays.copyOfRange(v, at, at += 2 * rounds);
        long[] jvm = Arrays.copyOfRange(v, at, at += rounds);
        long[] inJvm = Arrays.copyOfRange(v, at, at += rounds);
        long[] jeromq = Arrays.copyOfRange(v, at, at += rounds);
        if (at != v.length) {
            throw new IllegalStateException("a child's line has " + v.length + " numbers, not " + at);
        }
        return new Suite.Interleaved((int) v[0], nat, jvm, inJvm, jeromq, (int) v[1], (int) v[2], v[3], v[4]);
    }

    /** Ends process and the processes it started (a child's C process and JeroMQ's JVM), by force. */
    private static void destroyWithDescendants(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** The command that runs main with args in a new JVM with this JVM's options and class path. */
    static List<String> javaCommand(Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // Not a debugger's or an agent's port, nor a log or recording file, that each child would fight over, nor
            // an option that prints to standard output, which carries a child's answers.
            if (!option.startsWith("-agentlib:") && !option.startsWith("-agentpath:") && !option.startsWith("-javaagent:")
                    && !option.startsWith("-Xrunjdwp") && !option.startsWith("-Xlog") && !option.startsWith("-XX:StartFlightRecording")
                    && !option.startsWith("-verbose") && !option.startsWith("-XX:+Print")) {
                command.add(option);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Runs the phase in processes fresh JVMs in turn (this JVM's options and class path), each with smallRounds rounds
     * per size below 64 KB and largeRounds at 64 KB, and returns each size's runs.
     */
    static List<Spread> run(String nativeBench, int processes, int smallRounds, int largeRounds) throws IOException, InterruptedException {
        List<String> command = javaCommand(Suite.class, "--native", nativeBench, "--interleaved-only", "--processes", "0", "--raw",
                "--small-rounds", Integer.toString(smallRounds), "--large-rounds", Integer.toString(largeRounds));
        Map<Integer, List<Suite.Interleaved>> bySize = new LinkedHashMap<>();
        for (int p = 1; p <= processes; p++) {
            System.out.printf("interleaved: process %d of %d%n", p, processes);
            Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            // A child that hangs (a peer that never answers) is ended, which ends the reading below.
            Thread watchdog = Thread.ofPlatform().daemon().start(() -> {
                try {
                    if (!child.waitFor(CHILD_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                        destroyWithDescendants(child);
                    }
                } catch (InterruptedException e) {
                    destroyWithDescendants(child);
                }
            });
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith(RAW)) {
                        Suite.Interleaved run = parse(line);
                        bySize.computeIfAbsent(run.size(), k -> new ArrayList<>()).add(run);
                    } else {
                        System.out.println("  " + line);
                    }
                }
            }
            watchdog.join();
            if (child.waitFor() != 0) {
                throw new IllegalStateException("interleaved process " + p + " exited with " + child.exitValue()
                        + " (ended after " + CHILD_LIMIT.toMinutes() + " minutes if it had not finished by then)");
            }
        }
        List<Spread> spreads = new ArrayList<>();
        bySize.forEach((size, runs) -> {
            if (runs.size() != processes) {
                throw new IllegalStateException(size + " B was measured in " + runs.size() + " of " + processes + " processes");
            }
            spreads.add(new Spread(size, runs));
        });
        return spreads;
    }
}
