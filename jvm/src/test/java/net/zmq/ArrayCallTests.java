package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Array sends and receives try a critical call first while no zero-copy message exists in the process, and take the
 * ordinary calls from the first one on. This suite's JVM makes zero-copy messages in other tests, so each case runs
 * {@link ArrayCallProbe} in a child JVM, which checks the array calls before and after it makes one.
 */
class ArrayCallTests {
    private static String probe(String... properties) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-ea",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("net.zmq.test.classpath", System.getProperty("java.class.path"))));
        command.addAll(List.of(properties));
        command.add(ArrayCallProbe.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the probe did not finish in 60 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void arraysOfEverySizeTryCriticalCallsUntilAZeroCopyMessageExistsThenOrdinaryOnes() throws Exception {
        String out = probe();
        assertTrue(out.contains("array calls checked, critical=true\narray calls checked, critical=false\n"), out);
    }

    @Test
    void withCriticalCallsTurnedOffArraysTakeTheOrdinaryCalls() throws Exception {
        String out = probe("-Dnet.zmq.critical=false");
        assertTrue(out.contains("array calls checked, critical=false\narray calls checked, critical=false\n"), out);
    }
}
