package net.zmq.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Finds and loads libzmq, in this order: the path named by the system property {@value #PATH_PROPERTY} or the
 * environment variable {@value #PATH_ENV} (an override, used alone); the copy bundled in the JAR for this platform,
 * extracted once per content hash to a cache directory only this user can write, and checked against that hash
 * before each load; the system's libzmq. A failure lists everything tried.
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
        String bundled = rid != null ? bundledEntry(rid, tried) : null;
        if (bundled != null) {
            Path extracted = extractBundled(rid, bundled, tried);
            if (extracted != null) {
                SymbolLookup lookup = tryLoad(extracted, "bundled " + rid, tried);
                if (lookup != null) {
                    return lookup;
                }
            }
        } else if (rid == null) {
            tried.add("bundled: no libzmq is bundled for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
        }
        for (String name : systemNames()) {
            try {
                SymbolLookup lookup = SymbolLookup.libraryLookup(name, Arena.global());
                loadedFrom = "system " + name;
                if (bundled != null) { // a bundled copy exists but was refused: say why, as the system one may lack drafts
                    loadedFrom += " (the bundled libzmq was not used: " + String.join("; ", tried) + ")";
                    System.getLogger(NativeLoader.class.getName()).log(System.Logger.Level.WARNING,
                            "Loaded the system's libzmq (" + name + ") instead of the bundled one; tried:\n  "
                                    + String.join("\n  ", tried));
                }
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
            tried.add(source + ": " + path + (Files.exists(path) ? " is not a regular file" : " does not exist"));
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

    /** This platform's line of the JAR's native index ("sha256 file name"), or null (why, added to tried). */
    private static String bundledEntry(String rid, List<String> tried) {
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
        }
        return entry;
    }

    /**
     * Copies the bundled library to {cache}/{sha-256 prefix}/ unless a file with its SHA-256 is there already; the write
     * goes to a temporary file renamed into place, so concurrent first runs never load a half-written file. The cache
     * directory and its hash directory must be real directories that only this user can write (where the file system
     * has POSIX permissions), and the file is checked against the hash every time before it is loaded: a file planted
     * or left truncated there is never loaded.
     */
    private static Path extractBundled(String rid, String entry, List<String> tried) {
        String[] parts = entry.split(" ", 2); // "<sha256> <file name>"
        String sha256 = parts[0];
        String fileName = parts[1];
        Path root = cacheDir();
        Path dir = root.resolve(sha256.substring(0, 16));
        Path target = dir.resolve(fileName);
        Path temp = null;
        try {
            if (root.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                // Owner-only whatever the umask: a group-writable directory would be refused below.
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
            for (Path d : List.of(root, dir)) {
                String unsafe = unsafeDirectory(d);
                if (unsafe != null) {
                    tried.add("bundled " + rid + ": the cache directory " + d + " is not safe to load code from (" + unsafe
                            + "); set -D" + CACHE_PROPERTY + " to a directory only you can write");
                    return null;
                }
            }
            if (hasHash(target, sha256)) {
                return target;
            }
            try (InputStream in = NativeLoader.class.getResourceAsStream(RESOURCE_ROOT + rid + "/" + fileName)) {
                if (in == null) {
                    tried.add("bundled " + rid + ": resource " + fileName + " missing from the JAR");
                    return null;
                }
                temp = Files.createTempFile(dir, fileName, ".part");
                Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            }
            if (!hasHash(temp, sha256)) {
                tried.add("bundled " + rid + ": the copy in the JAR does not match its SHA-256 in the index (a damaged JAR)");
                return null;
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                // Another process put it there first (on Windows a loaded DLL cannot be replaced): use theirs if it is right.
                if (!hasHash(target, sha256)) {
                    throw e;
                }
            }
            return target;
        } catch (IOException e) {
            tried.add("bundled " + rid + ": extracting to " + dir + " failed (" + e + "); set -D" + CACHE_PROPERTY + " to a writable directory");
            return null;
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) { // a leftover .part file is harmless: it is never loaded
                }
            }
        }
    }

    /** Whether file is a regular file (not a link) whose content has the given SHA-256. */
    private static boolean hasHash(Path file, String sha256) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest()).equalsIgnoreCase(sha256);
    }

    /**
     * Why dir is not safe to load code from, or null: with POSIX permissions, it must be a directory (not a link) that
     * no group or other user can write and, on Linux, that this process's user owns (another could swap the file
     * between the check and the load). Elsewhere (Windows) the user's profile directories' access rules apply.
     */
    private static String unsafeDirectory(Path dir) throws IOException {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return null;
        }
        if (!attributes.isDirectory()) {
            return "it is a link or not a directory";
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            return "other users can write to it";
        }
        Path self = Path.of("/proc/self"); // owned by this process's user on Linux
        if (Files.isDirectory(self)) {
            Object me = Files.getAttribute(self, "unix:uid");
            Object owner = Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (!owner.equals(me)) {
                return "another user (uid " + owner + ") owns it";
            }
        }
        return null;
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
