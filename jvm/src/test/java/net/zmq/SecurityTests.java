package net.zmq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
        try (Socket server = Zmq.socket(context, SocketType.REP); Socket client = Zmq.socket(context, SocketType.REQ)) {
            server.setOption(SocketOption.PLAIN_SERVER, true);
            server.bind("tcp://127.0.0.1:*");
            client.setOption(SocketOption.PLAIN_USERNAME, user);
            client.setOption(SocketOption.PLAIN_PASSWORD, password);
            try (SocketMonitor monitor = new SocketMonitor(client, SocketEvent.HANDSHAKE_SUCCEEDED.bit() | SocketEvent.HANDSHAKE_FAILED_AUTH.bit())) {
                client.connect(server.lastEndpoint());
                SocketMonitorEvent event = monitor.receive(Zmq.WAIT);
                assertNotNull(event);
                return event.event() == SocketEvent.HANDSHAKE_SUCCEEDED;
            }
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
