package net.zmq.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.zeromq.ZContext;

/**
 * JeroMQ's side of the interleaved phase, in a JVM of its own, as JMH forks one per benchmark: JeroMQ's code, its
 * threads and its garbage then share nothing with the binding's process, whose rounds it is compared with. It speaks
 * the native baseline's serve protocol: it warms up at every size in turn until its JIT compilers are quiet, prints
 * "ready", then reads commands from stdin: "throughput &lt;size&gt; &lt;messages&gt;" runs JeroMQ's ROUTER-to-ROUTER
 * loop once ({@link Suite.JeroPair}) and prints its nanoseconds on a line of its own; "compiled" prints the
 * milliseconds its JIT compilers have spent so far; "quit" or the end of input ends it.
 * <p>Usage: JeroServe [--warmups N] (the fewest warm-up rounds)
 */
public final class JeroServe {
    private JeroServe() {
    }

    public static void main(String[] args) throws Exception {
        int warmups = args.length == 2 && args[0].equals("--warmups") ? Integer.parseInt(args[1]) : 3;
        Map<Integer, byte[][]> arrays = new HashMap<>(); // per size: the payload and the receive buffer
        try (ZContext context = new ZContext();
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            Suite.JeroPair pair = new Suite.JeroPair(context);
            Harness.warmUp(() -> {
                for (int size : Suite.SIZES) {
                    byte[][] a = arrays.computeIfAbsent(size, s -> new byte[][] {new byte[s], new byte[s]});
                    pair.run(a[0], a[1], Suite.MESSAGES);
                }
            }, warmups);
            System.out.println("ready");
            System.out.flush();
            for (String line; (line = in.readLine()) != null && !line.equals("quit"); ) {
                String[] words = line.trim().split(" ");
                if (words[0].equals("compiled")) {
                    System.out.println(Harness.compilationMillis());
                } else if (words[0].equals("throughput") && words.length == 3) {
                    int size = Integer.parseInt(words[1]);
                    byte[][] a = arrays.computeIfAbsent(size, s -> new byte[][] {new byte[s], new byte[s]});
                    long start = System.nanoTime();
                    pair.run(a[0], a[1], Integer.parseInt(words[2]));
                    System.out.println(System.nanoTime() - start);
                } else {
                    throw new IllegalArgumentException("unknown command '" + line + "'");
                }
                System.out.flush();
            }
        }
    }
}
