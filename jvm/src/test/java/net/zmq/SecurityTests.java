package net.zmq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Consumer;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Z85, CURVE, certificates and the ZAP authenticator, with real handshakes over tcp. */
class SecurityTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void z85MatchesTheSpecificationsTestVector() {
        byte[] data = {(byte) 0x86, 0x4F, (byte) 0xD2, 0x6F, (byte) 0xB5, 0x59, (byte) 0xF7, 0x5B};
        assertEquals("HelloWorld", Z85.encode(data));
        assertArrayEquals(data, Z85.decode("HelloWorld"));
        assertThrows(IllegalArgumentException.class, () -> Z85.decode("abc"));
        assertThrows(IllegalArgumentException.class, () -> Z85.decode("abcd~"));
    }

    @Test
    void curveKeysAreConsistent() {
        CurveKeyPair keys = Curve.generateKeyPair();
        assertEquals(keys.publicKey(), Curve.publicKeyOf(keys.secretKey()));
        assertEquals(-1, keys.toString().indexOf(keys.secretKey()));
    }

    /**
     * libzmq sets up each endpoint's security as it is bound or connected: a security option set later would not reach
     * those endpoints (a CURVE server bound first accepted a plaintext peer), so it is refused, and nothing is set.
     */
    @Test
    void securityOptionsAfterABindOrConnectAreRefused() {
        CurveKeyPair keys = Curve.generateKeyPair();
        try (Socket server = Zmq.socket(context, SocketType.PULL); Socket client = Zmq.socket(context, SocketType.PUSH)) {
            server.bind("tcp://127.0.0.1:*");
            IllegalStateException late = assertThrows(IllegalStateException.class, () -> Curve.makeServer(server, keys));
            assertTrue(late.getMessage().contains("CURVE_SERVER set after this PULL socket was bound or connected"), late.getMessage());
            assertTrue(late.getMessage().contains("set security options before bind and connect"), late.getMessage());
            assertEquals(0, server.getOption(SocketOption.MECHANISM)); // NULL: the refused option was not set
            assertThrows(IllegalStateException.class, () -> server.setOption(SocketOption.ZAP_DOMAIN, "global"));
            assertThrows(IllegalStateException.class, () -> server.setOption(SocketOption.PLAIN_SERVER, true));
            client.connect(server.lastEndpoint());
            assertThrows(IllegalStateException.class, () -> Curve.makeClient(client, keys, keys.publicKey()));
            client.setOption(SocketOption.SNDHWM, 5); // other options are still taken
        }
    }

    /**
     * A STREAM socket carries raw bytes without ZeroMQ's handshake: libzmq runs no security mechanism and asks no ZAP
     * handler on it, so a CURVE server or a ZAP domain there would admit every peer. Refused, and nothing is set.
     */
    @Test
    void securityOptionsOnAStreamSocketAreRefused() {
        try (Socket stream = Zmq.socket(context, SocketType.STREAM)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> Curve.makeServer(stream, Curve.generateKeyPair()));
            assertTrue(refused.getMessage().contains("on a STREAM socket would admit every peer"), refused.getMessage());
            assertThrows(IllegalStateException.class, () -> stream.setOption(SocketOption.PLAIN_SERVER, true));
            assertThrows(IllegalStateException.class, () -> stream.setOption(SocketOption.ZAP_DOMAIN, "global"));
            assertEquals(0, stream.getOption(SocketOption.MECHANISM)); // NULL: nothing was set
        }
    }

    @Test
    void certificatesRoundTripThroughFiles() throws Exception {
        Path dir = Files.createTempDirectory("certs");
        try {
            CurveKeyPair keys = Curve.generateKeyPair();
            Path[] files = CurveCertificate.save(keys, dir, "server");
            assertEquals(new CurveKeyPair(keys.publicKey(), null), CurveCertificate.load(files[0]));
            assertEquals(keys, CurveCertificate.load(files[1]));
        } finally {
            try (var paths = Files.list(dir)) {
                for (Path p : paths.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    /** A pair whose public key is not its secret key's would be saved as files that never load: refused, nothing written. */
    @Test
    void aMismatchedKeyPairIsNotSaved(@TempDir Path dir) throws Exception {
        CurveKeyPair a = Curve.generateKeyPair();
        CurveKeyPair b = Curve.generateKeyPair();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CurveCertificate.save(new CurveKeyPair(a.publicKey(), b.secretKey()), dir, "mixed"));
        assertTrue(e.getMessage().contains("is not the secret key's (" + b.publicKey() + ")"), e.getMessage());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "something was written");
        }
    }

    /**
     * A public-only save beside the secret file of another key pair is refused, and writes nothing: the two files
     * would disagree, and that secret file may be the only copy of its key. The same pair's public key is written.
     */
    @Test
    void aPublicOnlySaveBesideAnotherPairsSecretFileIsRefused(@TempDir Path dir) throws Exception {
        CurveKeyPair first = Curve.generateKeyPair();
        Path[] files = CurveCertificate.save(first, dir, "server");
        CurveKeyPair second = new CurveKeyPair(Curve.generateKeyPair().publicKey(), null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CurveCertificate.save(second, dir, "server"));
        assertTrue(e.getMessage().contains(files[1] + " holds the secret key of another key pair (public key "
                + first.publicKey() + ")"), e.getMessage());
        assertEquals(first, CurveCertificate.load(files[1]));
        assertEquals(new CurveKeyPair(first.publicKey(), null), CurveCertificate.load(files[0]));

        Files.writeString(dir.resolve("odd.key_secret"), "not a certificate\n");
        IllegalStateException odd = assertThrows(IllegalStateException.class, () -> CurveCertificate.save(second, dir, "odd"));
        assertTrue(odd.getMessage().contains("odd.key_secret is there and is not a CURVE certificate"), odd.getMessage());
        assertFalse(Files.exists(dir.resolve("odd.key")));

        assertArrayEquals(new Path[] {files[0]}, CurveCertificate.save(new CurveKeyPair(first.publicKey(), null), dir, "server"));
        assertEquals(first, CurveCertificate.load(files[1]));
        assertArrayEquals(new Path[] {dir.resolve("client.key")}, CurveCertificate.save(second, dir, "client"));
        assertEquals(second, CurveCertificate.load(dir.resolve("client.key")));
    }

    private boolean curveExchange(CurveKeyPair server, CurveKeyPair client) {
        try (Socket rep = Zmq.socket(context, SocketType.REP); Socket req = Zmq.socket(context, SocketType.REQ)) {
            Curve.makeServer(rep, server);
            rep.bind("tcp://127.0.0.1:*");
            Curve.makeClient(req, client, server.publicKey());
            try (SocketMonitor monitor = new SocketMonitor(req, SocketEvent.HANDSHAKE_SUCCEEDED.bit() | SocketEvent.HANDSHAKE_FAILED_AUTH.bit())) {
                req.connect(rep.lastEndpoint());
                SocketMonitorEvent event = monitor.receive(Zmq.WAIT);
                assertNotNull(event);
                if (event.event() != SocketEvent.HANDSHAKE_SUCCEEDED) {
                    return false;
                }
            }
            req.send("secret");
            assertEquals("secret", rep.recvString());
            return true;
        }
    }

    @Test
    void zapAllowsKnownCurveKeysAndRefusesOthers() {
        CurveKeyPair server = Curve.generateKeyPair();
        CurveKeyPair known = Curve.generateKeyPair();
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.allowCurveKey(known.publicKey());
            assertEquals(true, curveExchange(server, known));
            assertEquals(false, curveExchange(server, Curve.generateKeyPair()));
        }
    }

    @Test
    void zapChecksPlainPasswordsAndAddresses() {
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.addPlainUser("admin", "s3cret");
            assertEquals(true, plainExchange("admin", "s3cret"));
            assertEquals(false, plainExchange("admin", "wrong"));
            zap.deny("127.0.0.1");
            assertEquals(false, plainExchange("admin", "s3cret"));
        }
    }

    private boolean plainExchange(String user, String password) {
        return plainExchange(user, password, false);
    }

    private boolean plainExchange(String user, String password, boolean ipv6) {
        return handshakeSucceeds(server -> server.setOption(SocketOption.PLAIN_SERVER, true), client -> {
            client.setOption(SocketOption.PLAIN_USERNAME, user);
            client.setOption(SocketOption.PLAIN_PASSWORD, password);
        }, ipv6);
    }

    /** libzmq asks the ZAP handler about a NULL connection only when the socket has a ZAP domain. */
    @Test
    void zapGuardsTheAddressesOfNullSocketsThatHaveAZapDomain() {
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.deny("127.0.0.1");
            assertEquals(false, handshakeSucceeds(server -> server.setOption(SocketOption.ZAP_DOMAIN, "guarded"), client -> { }, false));
            assertEquals(true, handshakeSucceeds(server -> { }, client -> { }, false), "without a ZAP domain libzmq asks nothing");
        }
    }

    /**
     * Whether a REQ client's handshake with a REP server over tcp succeeds, each set up first. With ipv6, the server is
     * an IPv6 socket on the IPv4-mapped loopback: libzmq reports IPv4 peers as ::ffff:a.b.c.d.
     */
    private boolean handshakeSucceeds(Consumer<Socket> serverSetup, Consumer<Socket> clientSetup, boolean ipv6) {
        try (Socket server = Zmq.socket(context, SocketType.REP); Socket client = Zmq.socket(context, SocketType.REQ)) {
            serverSetup.accept(server);
            server.setOption(SocketOption.IPV6, ipv6);
            server.bind(ipv6 ? "tcp://[::ffff:127.0.0.1]:*" : "tcp://127.0.0.1:*");
            clientSetup.accept(client);
            try (SocketMonitor monitor = new SocketMonitor(client, SocketEvent.HANDSHAKE_SUCCEEDED.bit() | SocketEvent.HANDSHAKE_FAILED_AUTH.bit())) {
                client.connect(server.lastEndpoint());
                SocketMonitorEvent event = monitor.receive(Zmq.WAIT);
                assertNotNull(event);
                return event.event() == SocketEvent.HANDSHAKE_SUCCEEDED;
            }
        }
    }

    @Test
    void aClosedAuthenticatorLeavesTheContextRefusingUntilAnotherStarts() {
        CurveKeyPair server = Curve.generateKeyPair();
        CurveKeyPair client = Curve.generateKeyPair();
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.allowAnyCurveClient();
            assertEquals(true, curveExchange(server, client));
        }
        // Nothing decides now: every ZAP request is refused (libzmq would admit any CURVE client with nothing bound).
        assertEquals(false, curveExchange(server, client));
        assertEquals(false, plainExchange("admin", "s3cret"));
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.allowCurveKey(client.publicKey());
            assertEquals(true, curveExchange(server, client));
        }
    }

    @Test
    void aContextWhoseAuthenticatorRanCanStillBeCollected() {
        WeakReference<Context> dropped = contextWithAnAuthenticatorThatRan();
        assertTrue(Zmq.collected(dropped), "the ZAP handler's thread keeps its context reachable");
    }

    private static WeakReference<Context> contextWithAnAuthenticatorThatRan() {
        Context unclosed = new Context();
        new ZapAuthenticator(unclosed).close();
        return new WeakReference<>(unclosed);
    }

    @Test
    void oneAuthenticatorServesAContextAtATime() {
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ZapAuthenticator(context));
            assertTrue(e.getMessage().contains("close it first"), e.getMessage());
        }
        context.close();
        assertThrows(IllegalStateException.class, () -> new ZapAuthenticator(context));
    }

    /** After a shutdown the ZAP handler answers nothing more: a new authenticator says so rather than guard nothing. */
    @Test
    void anAuthenticatorStartedAfterTheContextsShutdownSaysItCannotServe() {
        new ZapAuthenticator(context).close(); // the handler thread is running
        context.shutdown();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ZapAuthenticator(context));
        assertTrue(e.getMessage().contains("the context was shut down"), e.getMessage());
        try (Context never = new Context()) { // a context whose handler never started
            never.shutdown();
            assertThrows(IllegalStateException.class, () -> new ZapAuthenticator(never));
        }
    }

    @Test
    void addressEntriesMatchIpv4PeersOfIpv6SocketsAndRefuseShorthands() {
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.addPlainUser("admin", "s3cret");
            assertEquals(true, plainExchange("admin", "s3cret", true));
            zap.deny("127.0.0.1"); // the peer is reported as ::ffff:127.0.0.1
            assertEquals(false, plainExchange("admin", "s3cret", true));
            for (String bad : new String[] {"127.1", "010.0.0.1", "::ffff:010.0.0.1", "::ffff:127.1", "localhost",
                    "127.0.0.1:5555", ""}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> zap.allow(bad), bad);
                assertTrue(e.getMessage().contains("not an IP address"), e.getMessage());
            }
            // The IPv4-compatible form names no peer libzmq reports: refused with the IPv4 entry meant.
            IllegalArgumentException compatible = assertThrows(IllegalArgumentException.class, () -> zap.deny("::127.0.0.1"));
            assertTrue(compatible.getMessage().contains("write '127.0.0.1'"), compatible.getMessage());
        }
        try (ZapAuthenticator zap = new ZapAuthenticator(context)) {
            zap.addPlainUser("admin", "s3cret").allow("::ffff:127.0.0.1"); // the same address written as IPv6
            assertEquals(true, plainExchange("admin", "s3cret", false));
            zap.allow("::1");
            assertEquals(true, plainExchange("admin", "s3cret", true));
        }
    }

    @Test
    void curveKeyOptionsReadBack() {
        CurveKeyPair keys = Curve.generateKeyPair();
        String serverKey = Curve.generateKeyPair().publicKey();
        try (Socket s = context.socket(SocketType.DEALER)) {
            Curve.makeClient(s, keys, serverKey);
            assertArrayEquals(Z85.decode(keys.publicKey()), s.getOption(SocketOption.CURVE_PUBLICKEY));
            assertArrayEquals(Z85.decode(keys.secretKey()), s.getOption(SocketOption.CURVE_SECRETKEY));
            assertArrayEquals(Z85.decode(serverKey), s.getOption(SocketOption.CURVE_SERVERKEY));
        }
    }

    @Test
    void theSecretCertificateIsCreatedOwnerOnlyAndReplacesALinkWithoutFollowingIt() throws Exception {
        Path dir = Files.createTempDirectory("certs");
        Path target = Files.createTempFile("elsewhere", ".txt");
        try {
            Files.createSymbolicLink(dir.resolve("server.key_secret"), target);
            Files.createSymbolicLink(dir.resolve("server.key"), target);
            CurveKeyPair keys = Curve.generateKeyPair();
            Path[] files = CurveCertificate.save(keys, dir, "server");
            assertEquals(0, Files.size(target), "a link's target was written through");
            assertFalse(Files.isSymbolicLink(files[0]));
            assertFalse(Files.isSymbolicLink(files[1]));
            try (var written = Files.list(dir)) {
                assertEquals(java.util.Set.of(files[0], files[1]), java.util.Set.copyOf(written.toList()), "a file left behind");
            }
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(files[1])));
            assertEquals(keys, CurveCertificate.load(files[1]));
            assertEquals(1, CurveCertificate.save(new CurveKeyPair(keys.publicKey(), null), dir, "public-only").length);
        } finally {
            try (var paths = Files.list(dir)) {
                for (Path p : paths.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
            Files.delete(target);
        }
    }

    /**
     * A certificate file is read as ZPL: keys only from its curve section, in double or single quotes, with comments
     * and CRLF line ends; CZMQ's forty zeros mean no secret key; a secret key that does not belong to the public key
     * is refused rather than failing handshakes later.
     */
    @Test
    void certificateFilesAreReadAsZplAndAMismatchedPairIsRefused() throws Exception {
        CurveKeyPair keys = Curve.generateKeyPair();
        CurveKeyPair other = Curve.generateKeyPair();
        Path file = Files.createTempFile("cert", ".key_secret");
        try {
            Files.writeString(file, "#  written by hand\r\nmetadata\r\n    public-key = \"" + other.publicKey() + "\"\r\n"
                    + "curve   # the keys\r\n    public-key = '" + keys.publicKey() + "'  # shared\r\n"
                    + "    secret-key = \"" + keys.secretKey() + "\"\r\n");
            assertEquals(keys, CurveCertificate.load(file));
            Files.writeString(file, "curve\n    public-key = \"" + keys.publicKey() + "\"\n    secret-key = \"" + "0".repeat(40) + "\"\n");
            assertEquals(new CurveKeyPair(keys.publicKey(), null), CurveCertificate.load(file));
            Files.writeString(file, "curve\n    public-key = \"" + keys.publicKey() + "\"\n    secret-key = \"" + other.secretKey() + "\"\n");
            IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class, () -> CurveCertificate.load(file));
            assertTrue(mixed.getMessage().contains("does not belong to its public-key"), mixed.getMessage());
            Files.writeString(file, "metadata\n    public-key = \"" + keys.publicKey() + "\"\n");
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> CurveCertificate.load(file));
            assertTrue(none.getMessage().contains("no public-key in a curve section"), none.getMessage());
            Files.writeString(file, "curve\n    public-key = \"" + keys.publicKey().substring(1) + "\"\n");
            IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class, () -> CurveCertificate.load(file));
            assertTrue(shortKey.getMessage().startsWith(file + ": a CURVE public key is 40 characters"), shortKey.getMessage());
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void withoutAHandlerEveryCurveClientIsAcceptedAndBadKeysAreRefused() {
        // No ZapAuthenticator: libzmq accepts every CURVE client (no ZAP handler bound).
        assertEquals(true, curveExchange(Curve.generateKeyPair(), Curve.generateKeyPair()));
        try (Socket s = context.socket(SocketType.REQ)) {
            assertThrows(IllegalArgumentException.class, () -> Curve.makeClient(s, Curve.generateKeyPair(), "short"));
        }
    }
}
