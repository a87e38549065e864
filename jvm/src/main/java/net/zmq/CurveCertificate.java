package net.zmq;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CURVE certificate files in the format of pyzmq's {@code zmq.auth} (and CZMQ's zcert): {@code name.key} holds the
 * public key, {@code name.key_secret} both keys, as ZPL text with a {@code curve} section.
 */
public final class CurveCertificate {
    private CurveCertificate() {
    }

    /**
     * Writes {@code dir/name.key}, and when keys has a secret key {@code dir/name.key_secret} (readable by the owner
     * only where the file system has POSIX permissions). Each file is written beside its target and renamed into place:
     * a reader never sees half a file, each file is either the old one or the new one, and a link in a target's place
     * is replaced, never written through. The secret file goes first, so a new public file always has its secret.
     *
     * @return the paths written, public first
     * @throws IllegalArgumentException keys' public key is not its secret key's (nothing is written)
     * @throws IllegalStateException keys has no secret key and {@code dir/name.key_secret} holds another public key
     *                               (or none): the public file written beside it would disagree with it. Nothing is
     *                               written then.
     */
    public static Path[] save(CurveKeyPair keys, Path dir, String name) throws IOException {
        if (keys.secretKey() != null && !Curve.publicKeyOf(keys.secretKey()).equals(keys.publicKey())) {
            throw new IllegalArgumentException("the public key " + keys.publicKey() + " is not the secret key's ("
                    + Curve.publicKeyOf(keys.secretKey()) + "): files of this pair would never load. Nothing was written");
        }
        Files.createDirectories(dir);
        Path pub = dir.resolve(name + ".key");
        Path sec = dir.resolve(name + ".key_secret");
        if (keys.secretKey() == null) {
            if (Files.exists(sec, LinkOption.NOFOLLOW_LINKS)) {
                String theirs = read(sec)[0];
                if (!keys.publicKey().equals(theirs)) {
                    throw new IllegalStateException(sec + (theirs == null ? " is there and is not a CURVE certificate"
                            : " holds the secret key of another key pair (public key " + theirs + ")") + ": a public file of "
                            + keys.publicKey() + " beside it would disagree with it. Save under another name, or move "
                            + "that file away first (it may be the only copy of its key)");
                }
            }
            replace(pub, text(keys.publicKey(), null), "rw-r--r--");
            return new Path[] {pub};
        }
        replace(sec, text(keys.publicKey(), keys.secretKey()), "rw-------");
        replace(pub, text(keys.publicKey(), null), "rw-r--r--");
        return new Path[] {pub, sec};
    }

    /**
     * Replaces file with text: written to a new file beside it, created with the given POSIX permissions from the
     * start (a file restricted after it was written would be readable by others meanwhile), then renamed over it.
     */
    private static void replace(Path file, String text, String permissions) throws IOException {
        FileAttribute<?>[] attributes = file.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))}
                : new FileAttribute<?>[0];
        // A new name, created and written in one open that follows no link: nothing planted in its place is written.
        Path temp = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".part");
        try {
            try (FileChannel channel = FileChannel.open(temp,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), attributes)) {
                ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true); // on disk before the rename makes it the file
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp); // after a failure; gone once moved
        }
    }

    private static String text(String publicKey, String secretKey) {
        StringBuilder b = new StringBuilder();
        if (secretKey == null) {
            b.append("#   Net.Zmq for the JVM: a ZeroMQ CURVE public certificate.\n");
            b.append("#   Share it; whoever trusts it should check with its owner that the key is theirs.\n\n");
        } else {
            b.append("#   Net.Zmq for the JVM: a ZeroMQ CURVE secret certificate.\n");
            b.append("#   It holds the secret key: keep it to its owner, never send it anywhere.\n\n");
        }
        b.append("metadata\ncurve\n    public-key = \"").append(publicKey).append("\"\n");
        if (secretKey != null) {
            b.append("    secret-key = \"").append(secretKey).append("\"\n");
        }
        return b.toString();
    }

    /** A section's name at the start of a line (ZPL), with an optional comment after it. */
    private static final Pattern SECTION = Pattern.compile("^([\\w$@&+/.-]+)\\s*(#.*)?$");
    /**
     * A property of a top-level section (ZPL indents each level by four spaces): name = value, the value in double or
     * single quotes or bare (where # starts a comment), with an optional comment.
     */
    private static final Pattern PROPERTY = Pattern.compile("^ {4}([\\w$@&+/.-]+)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s#\"']*))\\s*(#.*)?$");
    /** The secret key CZMQ writes for a certificate that has none. */
    private static final String NO_SECRET_KEY = "0".repeat(40);

    /**
     * Reads a certificate file (public or secret): the public-key and secret-key of its {@code curve} section.
     *
     * @return its keys; secretKey is null for a public certificate (or CZMQ's forty zeros)
     * @throws IOException              the file cannot be read
     * @throws IllegalArgumentException the file has no valid public key, or its secret key does not belong to it
     * @throws ZmqException              the file has a secret key, and this libzmq has no CURVE to check it with
     */
    public static CurveKeyPair load(Path file) throws IOException {
        String[] keys = read(file);
        String publicKey = keys[0];
        String secretKey = keys[1];
        if (publicKey == null) {
            throw new IllegalArgumentException(file + " has no public-key in a curve section: it is not a CURVE certificate");
        }
        if (NO_SECRET_KEY.equals(secretKey)) {
            secretKey = null;
        }
        CurveKeyPair pair;
        try {
            pair = new CurveKeyPair(publicKey, secretKey);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        if (secretKey != null && !Curve.publicKeyOf(secretKey).equals(publicKey)) {
            throw new IllegalArgumentException(file + ": its secret-key does not belong to its public-key (the pair was "
                    + "mixed up or edited); save the key pair again");
        }
        return pair;
    }

    /** The public-key and secret-key of a file's {@code curve} section, as written (each null when missing). */
    private static String[] read(Path file) throws IOException {
        String publicKey = null;
        String secretKey = null;
        String section = null;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            Matcher m;
            if (!Character.isWhitespace(line.charAt(0))) { // a new top-level section (or something else at the top level)
                section = (m = SECTION.matcher(line)).matches() ? m.group(1) : null;
            } else if ((m = PROPERTY.matcher(line)).matches() && "curve".equals(section)) {
                String value = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
                switch (m.group(1)) {
                    case "public-key" -> publicKey = value;
                    case "secret-key" -> secretKey = value;
                    default -> { } // not a key
                }
            }
        }
        return new String[] {publicKey, secretKey};
    }
}
