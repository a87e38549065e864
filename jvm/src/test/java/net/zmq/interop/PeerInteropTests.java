package net.zmq.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import net.zmq.Context;
import net.zmq.Curve;
import net.zmq.CurveCertificate;
import net.zmq.CurveKeyPair;
import net.zmq.Message;
import net.zmq.MultipartMessage;
import net.zmq.RecvFlags;
import net.zmq.Socket;
import net.zmq.SocketType;
import net.zmq.ZapAuthenticator;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CURVE over tcp with independent stacks running as processes on the host: pyzmq and Net.Zmq (.NET, this repository).
 * jvm/build.sh test starts them and passes their control endpoints in -Dnet.zmq.test.peers ("name=endpoint,…");
 * without it (a bare JUnit run) these tests are skipped with that reason.
 */
class PeerInteropTests {
    private static final Map<String, String> PEERS = new LinkedHashMap<>();

    static {
        String spec = System.getProperty("net.zmq.test.peers", "");
        for (String entry : spec.split(",")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                PEERS.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
    }

    private static String control(Context context, String peer, String command) {
        assumeTrue(PEERS.containsKey(peer), "no " + peer + " peer process (run through jvm/build.sh test)");
        try (Socket req = Zmq.socket(context, SocketType.REQ)) {
            req.setOption(net.zmq.SocketOption.RCVTIMEO, java.time.Duration.ofSeconds(30));
            req.connect(PEERS.get(peer));
            req.send(command);
            String reply = req.recvString();
            assertNotNull(reply, peer + " did not answer '" + command + "'");
            return reply;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pyzmq", "dotnet"})
    void javaDealersAreServedByThePeersCurveRouter(String peer) {
        try (Context context = new Context()) {
            String[] info = control(context, peer, "info").split(" ");
            CurveKeyPair keys = Curve.generateKeyPair();
            for (int i = 0; i < 2; i++) {
                try (Socket dealer = Zmq.socket(context, SocketType.DEALER)) {
                    Curve.makeClient(dealer, keys, info[1]);
                    dealer.connect(info[0]);
                    dealer.send("java dealer " + i);
                    assertEquals("echo:java dealer " + i, dealer.recvString());
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pyzmq", "dotnet"})
    void javaCurveRouterWithZapServesThePeersDealer(String peer) throws Exception {
        try (Context context = new Context()) {
            String[] info = control(context, peer, "info").split(" ");
            CurveKeyPair server = Curve.generateKeyPair();
            try (ZapAuthenticator zap = new ZapAuthenticator(context).allowCurveKey(info[2]);
                 Socket router = Zmq.socket(context, SocketType.ROUTER); Socket req = Zmq.socket(context, SocketType.REQ);
                 Message frame = new Message()) {
                Curve.makeServer(router, server);
                router.bind("tcp://127.0.0.1:*");
                req.setOption(net.zmq.SocketOption.RCVTIMEO, java.time.Duration.ofSeconds(30));
                req.connect(PEERS.get(peer));
                req.send("connect " + router.lastEndpoint() + " " + server.publicKey());
                // Serve the peer's DEALER, then read its report.
                byte[] id = router.recvBytes();
                assertNotNull(id, peer + "'s DEALER never got through the CURVE handshake and ZAP");
                router.recv(frame, RecvFlags.NONE);
                assertEquals("hello from " + (peer.equals("pyzmq") ? "pyzmq" : "Net.Zmq"), frame.text());
                assertEquals(info[2], frame.property("User-Id")); // ZAP's user id: the client's public key
                router.sendMultipart(MultipartMessage.of(id, "welcome".getBytes()));
                assertEquals("ok welcome", req.recvString());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pyzmq", "dotnet"})
    void aClientKeyZapDoesNotKnowIsRefused(String peer) throws Exception {
        try (Context context = new Context()) {
            control(context, peer, "info");
            CurveKeyPair server = Curve.generateKeyPair();
            try (ZapAuthenticator zap = new ZapAuthenticator(context).allowCurveKey(Curve.generateKeyPair().publicKey());
                 Socket router = Zmq.socket(context, SocketType.ROUTER); Socket req = Zmq.socket(context, SocketType.REQ)) {
                Curve.makeServer(router, server);
                router.bind("tcp://127.0.0.1:*");
                req.setOption(net.zmq.SocketOption.RCVTIMEO, java.time.Duration.ofSeconds(30));
                req.connect(PEERS.get(peer));
                // Two seconds is ample for a local handshake (the accepted case above takes milliseconds).
                req.send("connect " + router.lastEndpoint() + " " + server.publicKey() + " 2000");
                assertEquals("timeout", req.recvString());
                assertEquals(null, router.recvBytes(RecvFlags.DONT_WAIT));
            }
        }
    }

    @Test
    void certificateFilesAreCompatibleWithPyzmqBothWays() throws Exception {
        try (Context context = new Context()) {
            String[] info = control(context, "pyzmq", "info").split(" ");
            // pyzmq wrote it (zmq.auth.create_certificates); we read it. The path is relative to the repository.
            CurveKeyPair fromPython = CurveCertificate.load(Path.of("..").resolve(info[3]));
            assertEquals(info[1], fromPython.publicKey());
            // We write one; pyzmq reads it (zmq.auth.load_certificate).
            CurveKeyPair ours = Curve.generateKeyPair();
            Path dir = Path.of("../artifacts/jvm/interop-certs");
            Files.createDirectories(dir);
            CurveCertificate.save(ours, dir, "java-client");
            String[] read = control(context, "pyzmq", "loadcert artifacts/jvm/interop-certs/java-client.key_secret").split(" ");
            assertEquals(ours.publicKey(), read[0]);
            assertEquals(ours.secretKey(), read[1]);
            read = control(context, "pyzmq", "loadcert artifacts/jvm/interop-certs/java-client.key").split(" ");
            assertEquals(ours.publicKey(), read[0]);
            assertEquals("-", read[1]);
        }
    }
}
