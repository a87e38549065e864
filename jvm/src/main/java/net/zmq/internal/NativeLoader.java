package net.zmq.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Finds and loads libzmq, in this order: the path named by the system property {@value #PATH_PROPERTY} or the
 * environment variable {@value #PATH_ENV} (an override, used alone); the copy bundled in the JAR for this platform,
 * extracted once per content hash to a cache directory; the system's libzmq. A failure lists everything tried.
 */
public final class NativeLoader {
    /** System property naming the libzmq file to load instead of the bundled one. */
    public static final String PATH_PROPERTY = "net.zmq.libzmq.path";
    /** Environment variable naming the libzmq file to load (the property wins when both are set). */
    public static final String PATH_ENV = "NETZMQ_LIBZMQ_PATH";
    /** System property naming the directory the bundled libzmq is extracted to. */
    public static final String CACHE_PROPERTY = "net.zmq.cache.dir";

    private static final String RESOURCE_ROOT = "/net/zmq/internal/native/";

    private NativeLoader() {
    }

    /** Where the loaded library came from (for diagnostics and tests). */
    public static volatile String loadedFrom = "";

    static SymbolLookup load() {
        List<String> tried = new ArrayList<>();
        String override = System.getProperty(PATH_PROPERTY);
        String source = "system property " + PATH_PROPERTY;
        if (override == null || override.isEmpty()) {
            override = System.getenv(PATH_ENV);
            source = "environment variable " + PATH_ENV;
        }
        if (override != null && !override.isEmpty()) {
            SymbolLookup lookup = tryLoad(Path.of(override), source, tried);
            if (lookup != null) {
                return lookup;
            }
            throw failure(tried, "the override is used alone: fix or unset it");
        }
        String rid = rid();
        if (rid != null) {
            Path extracted = extractBundled(rid, tried);
            if (extracted != null) {
                SymbolLookup lookup = tryLoad(extracted, "bundled " + rid, tried);
                if (lookup != null) {
                    return lookup;
                }
            }
        } else {
            tried.add("bundled: no libzmq is bundled for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
        }
        for (String name : systemNames()) {
            try {
                SymbolLookup lookup = SymbolLookup.libraryLookup(name, Arena.global());
                loadedFrom = "system " + name;
                return lookup;
            } catch (IllegalArgumentException e) {
                tried.add("system library " + name + ": not found by the dynamic loader");
            }
        }
        throw failure(tried, "set -D" + PATH_PROPERTY + "=/path/to/libzmq or install libzmq (libzmq5 on Debian)");
    }

    private static UnsatisfiedLinkError failure(List<String> tried, String fix) {
        return new UnsatisfiedLinkError("libzmq could not be loaded; tried:\n  " + String.join("\n  ", tried) + "\n" + fix);
    }

    private static SymbolLookup tryLoad(Path path, String source, List<String> tried) {
        if (!Files.isRegularFile(path)) {
            tried.add(source + ": " + path + " does not exist");
            return null;
        }
        try {
            SymbolLookup lookup = SymbolLookup.libraryLookup(path, Arena.global());
            loadedFrom = source + " " + path;
            return lookup;
        } catch (IllegalArgumentException e) {
            tried.add(source + ": " + path + " could not be loaded (" + e.getMessage() + ")");
            return null;
        }
    }

    /** The bundled build for this machine, e.g. linux-x64; null when none fits. */
    static String rid() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "x64";
            case "aarch64", "arm64" -> "arm64";
            default -> null;
        };
        if (cpu == null) {
            return null;
        }
        if (os.contains("linux")) {
            return "linux-" + cpu;
        }
        if (os.contains("windows") && cpu.equals("x64")) {
            return "win-x64";
        }
        return null;
    }

    private static List<String> systemNames() {
        return System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("windows")
                ? List.of("libzmq.dll", "libzmq-v143-mt-4_3_5.dll")
                : List.of("libzmq.so.5", "libzmq.so");
    }

    /**
     * Copies the bundled library to {cache}/{sha-256 prefix}/ unless it is there already; the write goes to a
     * temporary file renamed into place, so concurrent first runs never load a half-written file.
     */
    private static Path extractBundled(String rid, List<String> tried) {
        Properties index = new Properties();
        try (InputStream in = NativeLoader.class.getResourceAsStream(RESOURCE_ROOT + "index.properties")) {
            if (in == null) {
                tried.add("bundled " + rid + ": this JAR carries no native libraries");
                return null;
            }
            index.load(in);
        } catch (IOException e) {
            tried.add("bundled " + rid + ": reading the index failed: " + e);
            return null;
        }
        String entry = index.getProperty(rid);
        if (entry == null) {
            tried.add("bundled " + rid + ": not in this JAR (it carries " + index.stringPropertyNames() + ")");
            return null;
        }
        String[] parts = entry.split(" ", 2); // "<sha256> <file name>"
        String fileName = parts[1];
        Path dir = cacheDir().resolve(parts[0].substring(0, 16));
        Path target = dir.resolve(fileName);
        if (Files.isRegularFile(target)) {
            return target;
        }
        try (InputStream in = NativeLoader.class.getResourceAsStream(RESOURCE_ROOT + rid + "/" + fileName)) {
            if (in == null) {
                tried.add("bundled " + rid + ": resource " + fileName + " missing from the JAR");
                return null;
            }
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, fileName, ".part");
            Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            tried.add("bundled " + rid + ": extracting to " + dir + " failed (" + e + "); set -D" + CACHE_PROPERTY + " to a writable directory");
            return null;
        }
    }

    private static Path cacheDir() {
        String configured = System.getProperty(CACHE_PROPERTY);
        if (configured != null && !configured.isEmpty()) {
            return Path.of(configured);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) {
            return Path.of(xdg, "net-zmq");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "net-zmq");
    }
}
