package net.zmq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import net.zmq.support.ChildJvm;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every socket type in its pattern, over real transports. */
class PatternTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "inproc", "ipc"})
    void reqRepRoundTrips(String transport) {
        try (Socket rep = Zmq.socket(context, SocketType.REP); Socket req = Zmq.socket(context, SocketType.REQ)) {
            Zmq.connect(rep, req, transport);
            for (int i = 0; i < 3; i++) {
                assertTrue(req.send("question " + i));
                assertEquals("question " + i, rep.recvString());
                assertTrue(rep.send("answer " + i));
                assertEquals("answer " + i, req.recvString());
            }
        }
    }

    /** libzmq aborts the process on a connect that gives a pipe's routing id twice: refused first, in a child JVM. */
    @Test
    void aConnectRoutingIdAlreadyUsedIsRefusedRatherThanAbortingTheProcess() throws Exception {
        ChildJvm.Outcome outcome = ChildJvm.run(ConnectRoutingIdProbe.class);
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("duplicate connect routing ids refused"), outcome.out());
    }

    @Test
    void pubSubFiltersByPrefix() throws Exception {
        try (Socket pub = Zmq.socket(context, SocketType.PUB); Socket sub = Zmq.socket(context, SocketType.SUB)) {
            sub.subscribe("weather.");
            Zmq.connect(pub, sub, "tcp");
            // A subscription reaches the publisher asynchronously: publish until the first one arrives.
            String received = null;
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (received == null && System.nanoTime() < deadline) {
                pub.send("sports.score 1");
                pub.send("weather.today sunny");
                received = sub.recvString(RecvFlags.DONT_WAIT);
                if (received == null) {
                    Thread.onSpinWait();
                    Thread.sleep(1); // pacing the publisher, not synchronisation: the loop ends on receipt
                }
            }
            assertEquals("weather.today sunny", received);
        }
    }

    @Test
    void xpubSeesSubscriptionsAndXsubForwards() {
        try (Socket xpub = Zmq.socket(context, SocketType.XPUB); Socket sub = Zmq.socket(context, SocketType.SUB)) {
            Zmq.connect(xpub, sub, "inproc");
            sub.subscribe("topic");
            byte[] subscription = xpub.recvBytes();
            assertNotNull(subscription);
            assertEquals(1, subscription[0]);
            assertEquals("topic", new String(subscription, 1, subscription.length - 1, StandardCharsets.UTF_8));
        }
    }

    @Test
    void pushPullRoundRobinsOverConnectedWorkers() {
        try (Socket push = Zmq.socket(context, SocketType.PUSH); Socket a = Zmq.socket(context, SocketType.PULL);
             Socket b = Zmq.socket(context, SocketType.PULL)) {
            push.bind("tcp://127.0.0.1:*");
            try (SocketMonitor monitor = new SocketMonitor(push, SocketEvent.HANDSHAKE_SUCCEEDED.bit())) {
                a.connect(push.lastEndpoint());
                b.connect(push.lastEndpoint());
                assertNotNull(monitor.await(SocketEvent.HANDSHAKE_SUCCEEDED, Zmq.WAIT));
                assertNotNull(monitor.await(SocketEvent.HANDSHAKE_SUCCEEDED, Zmq.WAIT));
            }
            for (int i = 0; i < 10; i++) {
                push.send("task " + i);
            }
            for (int i = 0; i < 5; i++) {
                assertNotNull(a.recvString());
                assertNotNull(b.recvString());
            }
            assertEquals(null, a.recvString(RecvFlags.DONT_WAIT));
        }
    }

    @Test
    void dealerRouterAddressesReplies() {
        try (Socket router = Zmq.socket(context, SocketType.ROUTER); Socket d1 = Zmq.socket(context, SocketType.DEALER);
             Socket d2 = Zmq.socket(context, SocketType.DEALER)) {
            router.bind("tcp://127.0.0.1:*");
            d1.setOption(SocketOption.ROUTING_ID, "one".getBytes(StandardCharsets.UTF_8));
            d2.setOption(SocketOption.ROUTING_ID, "two".getBytes(StandardCharsets.UTF_8));
            d1.connect(router.lastEndpoint());
            d2.connect(router.lastEndpoint());
            d1.send("from one");
            d2.send("from two");
            for (int i = 0; i < 2; i++) {
                MultipartMessage m = router.recvMultipart();
                assertEquals(2, m.size());
                router.sendMultipart(MultipartMessage.of(m.get(0), ("reply to " + m.getString(1)).getBytes(StandardCharsets.UTF_8)));
            }
            assertEquals("reply to from one", d1.recvString());
            assertEquals("reply to from two", d2.recvString());
        }
    }

    @Test
    void pairIsBidirectional() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "inproc");
            a.send("to b");
            b.send("to a");
            assertEquals("to b", b.recvString());
            assertEquals("to a", a.recvString());
        }
    }

    @Test
    void streamSocketSpeaksRawTcp() throws Exception {
        try (Socket stream = Zmq.socket(context, SocketType.STREAM)) {
            stream.bind("tcp://127.0.0.1:*");
            String endpoint = stream.lastEndpoint();
            int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
            try (java.net.Socket client = new java.net.Socket("127.0.0.1", port)) {
                client.setSoTimeout((int) Zmq.WAIT.toMillis());
                byte[] id = stream.recvBytes(); // connection notification: id + empty frame
                assertNotNull(id);
                assertEquals(0, stream.recvBytes().length);
                client.getOutputStream().write("raw".getBytes(StandardCharsets.UTF_8));
                assertArrayEquals(id, stream.recvBytes());
                assertEquals("raw", stream.recvString());
                stream.sendMore(id);
                stream.send("back");
                byte[] reply = client.getInputStream().readNBytes(4);
                assertEquals("back", new String(reply, StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void routerMandatoryReportsUnknownPeer() {
        try (Socket router = Zmq.socket(context, SocketType.ROUTER)) {
            router.setOption(SocketOption.ROUTER_MANDATORY, true);
            ZmqException e = org.junit.jupiter.api.Assertions.assertThrows(ZmqException.class,
                    () -> router.send("nobody".getBytes(StandardCharsets.UTF_8), SendFlags.SEND_MORE));
            assertTrue(e.getMessage().contains("unknown"), e.getMessage());
            assertFalse(router.isClosed());
        }
    }
}
