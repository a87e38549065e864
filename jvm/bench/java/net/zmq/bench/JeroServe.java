package net.zmq.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.zeromq.ZContext;

/**
 * JeroMQ's side of the interleaved phase, in a JVM of its own, as JMH forks one per benchmark: JeroMQ's code, its
 * threads and its garbage then share nothing with the binding's process, whose rounds it is compared with. It speaks
 * the native baseline's serve protocol: it warms up at every size in turn until its JIT compilers are quiet, prints
 * "ready", then reads commands from stdin: "throughput &lt;size&gt; &lt;messages&gt;" runs JeroMQ's ROUTER-to-ROUTER
 * loop once ({@link JeroPair}) and prints its nanoseconds on a line of its own; "compiled" prints the milliseconds its
 * JIT compilers have spent so far; "quit" or the end of input ends it. It takes its sizes from its arguments, not
 * from {@link Suite}, whose classes (Netty's allocator among them) have no business in this JVM.
 * <p>Usage: JeroServe --warmups N (the fewest warm-up rounds) --messages N (per warm-up run) --sizes A,B,...
 */
public final class JeroServe {
    private JeroServe() {
    }

    public static void main(String[] args) throws Exception {
        int warmups = 3;
        int messages = 10_000;
        int[] sizes = {64};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--warmups" -> warmups = Integer.parseInt(args[++i]);
                case "--messages" -> messages = Integer.parseInt(args[++i]);
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Map<Integer, byte[][]> arrays = new HashMap<>(); // per size: the payload and the receive buffer
        try (ZContext context = new ZContext();
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            JeroPair pair = new JeroPair(context);
            int[] warmSizes = sizes;
            int warmMessages = messages;
            Harness.warmUp(() -> {
                for (int size : warmSizes) {
                    run(pair, arrays, size, warmMessages);
                }
            }, warmups);
            System.out.println("ready");
            System.out.flush();
            for (String line; (line = in.readLine()) != null && !line.equals("quit"); ) {
                String[] words = line.trim().split(" ");
                if (words[0].equals("compiled")) {
                    System.out.println(Harness.compilationMillis());
                } else if (words[0].equals("throughput") && words.length == 3) {
                    System.out.println(run(pair, arrays, Integer.parseInt(words[1]), Integer.parseInt(words[2])));
                } else {
                    throw new IllegalArgumentException("unknown command '" + line + "'");
                }
                System.out.flush();
            }
        }
    }

    /** One run of the loop at size (the size's arrays made at its first run); its nanoseconds. */
    private static long run(JeroPair pair, Map<Integer, byte[][]> arrays, int size, int messages) {
        byte[][] a = arrays.computeIfAbsent(size, s -> new byte[][] {new byte[s], new byte[s]});
        long start = System.nanoTime();
        pair.run(a[0], a[1], messages);
        return System.nanoTime() - start;
    }
}
