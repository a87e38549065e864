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
import java.util.Map;
import java.util.stream.Stream;
import net.zmq.support.ChildJvm;
import net.zmq.support.ChildJvm.Outcome;
import org.junit.jupiter.api.Test;

/** The loader, each case in a child JVM (a process loads libzmq once): bundled extraction, the override, failure. */
class LoaderTests {
    private static Outcome probe(String... properties) throws IOException, InterruptedException {
        return ChildJvm.run(LoaderProbe.class, properties);
    }

    /** Probes with cache as the cache directory; asserts the bundled library was loaded. */
    private static Outcome loadsBundled(Path cache) throws IOException, InterruptedException {
        Outcome outcome = probe("-Dnet.zmq.cache.dir=" + cache);
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("from bundled"), outcome.out());
        return outcome;
    }

    private static Path extractedLibrary(Path cache) throws IOException {
        try (Stream<Path> files = Files.walk(cache)) {
            return files.filter(f -> f.getFileName().toString().startsWith("libzmq")).findFirst().orElseThrow();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Test
    void bundledLibraryIsExtractedOnceToTheCacheAndLoadedFromThere() throws Exception {
        Path cache = Files.createTempDirectory("net-zmq-cache");
        try {
            Outcome first = loadsBundled(cache);
            Path extracted = extractedLibrary(cache);
            assertTrue(first.out().contains(extracted.toString()), first.out());
            long written = Files.getLastModifiedTime(extracted).toMillis();
            loadsBundled(cache);
            assertEquals(written, Files.getLastModifiedTime(extracted).toMillis(), "extracted again");
        } finally {
            deleteTree(cache);
        }
    }

    @Test
    void aDamagedCachedCopyIsReplacedAndACacheOthersCanWriteIsRefused() throws Exception {
        Path cache = Files.createTempDirectory("net-zmq-cache");
        try {
            loadsBundled(cache);
            Path extracted = extractedLibrary(cache);
            byte[] good = Files.readAllBytes(extracted);
            Files.write(extracted, new byte[100]); // truncated, or planted by someone else
            loadsBundled(cache);
            assertArrayEquals(good, Files.readAllBytes(extracted), "the damaged copy was loaded or kept");

            Files.setPosixFilePermissions(extracted.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
            Outcome third = probe("-Dnet.zmq.cache.dir=" + cache);
            assertFalse(third.out().contains("from bundled"), third.out());
            // Without a system libzmq the failure lists why the bundled copy was refused; with one, that one is used.
            assertTrue(third.exit() != 0 ? third.out().contains("other users can write to it") : third.out().contains("from system"),
                    third.out());

            // With a system libzmq (here a copy of the bundled one that the dynamic loader finds), the fallback says why.
            Path system = Files.createTempDirectory("net-zmq-system");
            try {
                Files.write(system.resolve("libzmq.so.5"), good);
                Outcome fallback = ChildJvm.run(LoaderProbe.class, Map.of("LD_LIBRARY_PATH", system.toString()),
                        "-Dnet.zmq.cache.dir=" + cache);
                assertEquals(0, fallback.exit(), fallback.out());
                assertTrue(fallback.out().contains("from system libzmq.so.5 (the bundled libzmq was not used: "), fallback.out());
                assertTrue(fallback.out().contains("other users can write to it"), fallback.out());
                assertTrue(fallback.out().contains("WARNING: Loaded the system's libzmq (libzmq.so.5) instead of the bundled one"),
                        fallback.out());
            } finally {
                deleteTree(system);
            }
        } finally {
            deleteTree(cache);
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
