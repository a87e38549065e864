package net.zmq.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.zmq.RecvFlags;

/**
 * Where the reused-buffer loop's time goes, thread by thread, beside the native C baseline (a diagnostic, not part of
 * the report): runs alternate native, JVM, native, …; for each thread of either process it prints the CPU time, the
 * time spent runnable but waiting for a core, and the number of times it was scheduled in (Linux's
 * /proc/&lt;pid&gt;/task/&lt;tid&gt;/schedstat), per message. The JVM's receiving loop runs on a thread of its own so
 * that the snapshots, taken on the main thread, are not counted in it. With --try-first each receive is first tried
 * non-blocking, and it prints how often a frame was not queued yet (EAGAIN).
 * <p>Usage: Profile --native &lt;zmq_native_bench&gt; [--size N] [--rounds N] [--warmups N] [--try-first]
 */
public final class Profile {
    private Profile() {
    }

    /** Nanoseconds on a CPU, nanoseconds runnable but waiting, times scheduled in, per thread name ("#tid" appended). */
    private static Map<String, long[]> snapshot(long pid) {
        Map<String, long[]> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim() + "#" + task.getFileName();
                    out.put(name, Arrays.stream(Files.readString(task.resolve("schedstat")).trim().split(" ")).mapToLong(Long::parseLong).toArray());
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** Adds after - before to totals, per thread name with the id dropped (the main thread of pid keeps "main:"). */
    private static void accumulate(Map<String, long[]> totals, Map<String, long[]> before, Map<String, long[]> after, long pid) {
        after.forEach((key, now) -> {
            long[] then = before.get(key);
            if (then == null) {
                return;
            }
            String name = (key.endsWith("#" + pid) ? "main:" : "") + key.substring(0, key.lastIndexOf('#'));
            long[] sum = totals.computeIfAbsent(name, k -> new long[3]);
            for (int i = 0; i < 3; i++) {
                sum[i] += now[i] - then[i];
            }
        });
    }

    public static void main(String[] args) throws Exception {
        String nativeBench = null;
        int size = 64;
        int rounds = 20;
        int warmups = 30;
        boolean tryFirst = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--native" -> nativeBench = args[++i];
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmups" -> warmups = Integer.parseInt(args[++i]);
                case "--try-first" -> tryFirst = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int messages = Suite.MESSAGES;
        Process process = Suite.startNative(nativeBench);
        long self = ProcessHandle.current().pid();
        Map<String, long[]> nat = new TreeMap<>();
        Map<String, long[]> jvm = new TreeMap<>();
        long[] natWall = new long[rounds];
        long[] jvmWall = new long[rounds];
        long[] eagain = new long[2];
        byte[] payload = new byte[size];
        byte[] id = new byte[16];
        byte[] buffer = new byte[size];
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
             PrintWriter cmd = new PrintWriter(process.getOutputStream(), true, StandardCharsets.US_ASCII);
             RouterPair pair = new RouterPair();
             Harness.Sender sender = new Harness.Sender(() -> Suite.sendReused(pair.sender, payload));
             Harness.Sender receiver = new Harness.Sender("bench-receiver", tryFirst ? () -> {
                 for (int n = 0; n < messages; n++) {
                     if (pair.receiver.recv(id, RecvFlags.DONT_WAIT) < 0) {
                         eagain[0]++;
                         pair.receiver.recv(id);
                     }
                     if (pair.receiver.recv(buffer, RecvFlags.DONT_WAIT) < 0) {
                         eagain[1]++;
                         pair.receiver.recv(buffer);
                     }
                 }
             } : () -> {
                 for (int n = 0; n < messages; n++) {
                     pair.receiver.recv(id);
                     pair.receiver.recv(buffer);
                 }
             })) {
            Suite.awaitReady(in);
            Runnable loop = () -> {
                receiver.start();
                sender.start();
                receiver.await();
                sender.await();
            };
            for (int w = 0; w < warmups; w++) {
                Suite.nativeRun(cmd, in, size);
                loop.run();
            }
            eagain[0] = eagain[1] = 0;
            for (int r = 0; r < rounds; r++) {
                Map<String, long[]> before = snapshot(process.pid());
                natWall[r] = Suite.nativeRun(cmd, in, size);
                accumulate(nat, before, snapshot(process.pid()), process.pid());
                before = snapshot(self);
                long start = System.nanoTime();
                loop.run();
                jvmWall[r] = System.nanoTime() - start;
                accumulate(jvm, before, snapshot(self), -1);
            }
            cmd.println("quit");
        } finally {
            process.waitFor();
        }
        double per = (double) rounds * messages;
        System.out.printf("%d B, %d rounds of %d messages: wall ns/msg (medians) native %.0f, JVM %.0f%n", size, rounds, messages,
                Suite.median(natWall) / messages, Suite.median(jvmWall) / messages);
        if (tryFirst) {
            System.out.printf("not queued yet (EAGAIN) on a non-blocking first try, per message: routing-id frame %.4f, payload frame %.4f%n",
                    eagain[0] / per, eagain[1] / per);
        }
        for (Map.Entry<String, Map<String, long[]>> side : Map.of("native C", nat, "JVM", jvm).entrySet()) {
            System.out.println(side.getKey() + " (per message): thread, cpu ns, runnable-waiting ns, times scheduled in");
            side.getValue().forEach((name, v) -> {
                if (v[0] / per >= 1) {
                    System.out.printf("  %-22s %8.1f %8.1f %8.4f%n", name, v[0] / per, v[1] / per, v[2] / per);
                }
            });
        }
    }
}
