package net.zmq.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;
import net.zmq.support.ChildJvm;
import net.zmq.support.ChildJvm.Outcome;
import org.junit.jupiter.api.Test;

/** The loader, each case in a child JVM (a process loads libzmq once): bundled extraction, the override, failure. */
class LoaderTests {
    private static Outcome probe(String... properties) throws IOException, InterruptedException {
        return ChildJvm.run(LoaderProbe.class, properties);
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
    void aDamagedCachedCopyIsReplacedAndACacheOthersCanWriteIsRefused() throws Exception {
        Path cache = Files.createTempDirectory("net-zmq-cache");
        try {
            Outcome first = probe("-Dnet.zmq.cache.dir=" + cache);
            assertEquals(0, first.exit(), first.out());
            Path extracted;
            try (Stream<Path> files = Files.walk(cache)) {
                extracted = files.filter(f -> f.getFileName().toString().startsWith("libzmq")).findFirst().orElseThrow();
            }
            byte[] good = Files.readAllBytes(extracted);
            Files.write(extracted, new byte[100]); // truncated, or planted by someone else
            Outcome second = probe("-Dnet.zmq.cache.dir=" + cache);
            assertEquals(0, second.exit(), second.out());
            assertTrue(second.out().contains("from bundled"), second.out());
            assertArrayEquals(good, Files.readAllBytes(extracted), "the damaged copy was loaded or kept");

            Files.setPosixFilePermissions(extracted.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
            Outcome third = probe("-Dnet.zmq.cache.dir=" + cache);
            assertFalse(third.out().contains("from bundled"), third.out());
            // Without a system libzmq the failure lists why the bundled copy was refused; with one, that one is used.
            assertTrue(third.exit() != 0 ? third.out().contains("other users can write to it") : third.out().contains("from system"),
                    third.out());
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
