package net.zmq.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The loader, each case in a child JVM (a process loads libzmq once): bundled extraction, the override, failure. */
class LoaderTests {
    private record Outcome(int exit, String out) {
    }

    private static Outcome probe(String... properties) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("net.zmq.test.classpath", System.getProperty("java.class.path"))));
        command.addAll(List.of(properties));
        command.add(LoaderProbe.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the probe did not finish in 60 s");
        }
        return new Outcome(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void bundledLibraryIsExtractedOnceToTheCacheAndLoadedFromThere() throws Exception {
        Path cache = Files.createTempDirectory("net-zmq-cache");
        try {
            Outcome first = probe("-Dnet.zmq.cache.dir=" + cache);
            assertEquals(0, first.exit(), first.out());
            assertTrue(first.out().contains("from bundled"), first.out());
            Path extracted;
            try (Stream<Path> files = Files.walk(cache)) {
                extracted = files.filter(f -> f.getFileName().toString().startsWith("libzmq")).findFirst().orElseThrow();
            }
            assertTrue(first.out().contains(extracted.toString()), first.out());
            long written = Files.getLastModifiedTime(extracted).toMillis();
            Outcome second = probe("-Dnet.zmq.cache.dir=" + cache);
            assertEquals(0, second.exit(), second.out());
            assertEquals(written, Files.getLastModifiedTime(extracted).toMillis(), "extracted again");
        } finally {
            try (Stream<Path> files = Files.walk(cache)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }

    @Test
    void overrideIsUsedAloneAndItsFailureSaysWhatWasTried() throws Exception {
        Outcome missing = probe("-Dnet.zmq.libzmq.path=/nonexistent/libzmq.so");
        assertNotEquals(0, missing.exit());
        assertTrue(missing.out().contains("tried"), missing.out());
        assertTrue(missing.out().contains("/nonexistent/libzmq.so does not exist"), missing.out());
        assertTrue(missing.out().contains("net.zmq.libzmq.path"), missing.out());
    }
}
