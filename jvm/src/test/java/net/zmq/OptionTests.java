package net.zmq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Options round-trip with their Java types; bad values fail clearly. */
class OptionTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void typedOptionsRoundTrip() {
        try (Socket s = context.socket(SocketType.DEALER)) {
            s.setOption(SocketOption.SNDHWM, 1234);
            assertEquals(1234, s.getOption(SocketOption.SNDHWM));
            s.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(250));
            assertEquals(Duration.ofMillis(250), s.getOption(SocketOption.RCVTIMEO));
            s.setOption(SocketOption.RCVTIMEO, null);
            assertNull(s.getOption(SocketOption.RCVTIMEO));
            s.setOption(SocketOption.ROUTING_ID, new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {1, 2, 3}, s.getOption(SocketOption.ROUTING_ID));
            s.setOption(SocketOption.IMMEDIATE, true);
            assertTrue(s.getOption(SocketOption.IMMEDIATE));
            s.setOption(SocketOption.MAXMSGSIZE, 1L << 33);
            assertEquals(1L << 33, s.getOption(SocketOption.MAXMSGSIZE));
            s.setOption(SocketOption.ZAP_DOMAIN, "global");
            assertEquals("global", s.getOption(SocketOption.ZAP_DOMAIN));
            assertEquals(SocketType.DEALER.value(), s.getOption(SocketOption.TYPE));
            assertFalse(s.getOption(SocketOption.RCVMORE));
        }
    }

    @Test
    void socketsStartWithTheContextsDefaultLinger() {
        try (Socket s = context.socket(SocketType.PUSH)) {
            assertEquals(Duration.ofSeconds(1), s.getOption(SocketOption.LINGER));
        }
        context.setDefaultLinger(Duration.ZERO);
        try (Socket s = context.socket(SocketType.PUSH)) {
            assertEquals(Duration.ZERO, s.getOption(SocketOption.LINGER));
        }
    }

    @Test
    void badValuesFailWithClearMessages() {
        try (Socket s = context.socket(SocketType.DEALER)) {
            assertThrows(UnsupportedOperationException.class, () -> s.setOption(SocketOption.RCVMORE, true));
            assertThrows(UnsupportedOperationException.class, () -> s.getOption(SocketOption.SUBSCRIBE));
            assertThrows(IllegalArgumentException.class, () -> s.setOption(SocketOption.ROUTING_ID, new byte[256]));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.setOption(SocketOption.CURVE_SERVERKEY, new byte[5]));
            assertTrue(e.getMessage().contains("CURVE_SERVERKEY takes a CURVE key"), e.getMessage());
            ZmqException bind = assertThrows(ZmqException.class, () -> s.bind("nonsense://x"));
            assertTrue(bind.getMessage().contains("nonsense://x"), bind.getMessage());
        }
    }

    /**
     * null (or a negative duration) is libzmq's -1, "forever", only for the options that take it; the other intervals
     * refuse it with what their 0 means, and read 0 back as Duration.ZERO.
     */
    @Test
    void foreverIsRefusedByTheIntervalsWithoutIt() {
        try (Socket s = context.socket(SocketType.DEALER)) {
            s.setOption(SocketOption.RCVTIMEO, null);
            assertNull(s.getOption(SocketOption.RCVTIMEO));
            s.setOption(SocketOption.RECONNECT_IVL, Duration.ofMillis(-1)); // never reconnect
            assertNull(s.getOption(SocketOption.RECONNECT_IVL));
            for (SocketOption<Duration> option : List.of(SocketOption.HANDSHAKE_IVL, SocketOption.CONNECT_TIMEOUT,
                    SocketOption.RECONNECT_IVL_MAX, SocketOption.HEARTBEAT_IVL, SocketOption.HEARTBEAT_TIMEOUT)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.setOption(option, null));
                assertTrue(e.getMessage().contains(option.name() + " takes 0 or more, not null"), e.getMessage());
                s.setOption(option, Duration.ZERO); // what libzmq takes instead
            }
            assertEquals(Duration.ZERO, s.getOption(SocketOption.HANDSHAKE_IVL));
        }
    }

    /** libzmq keeps HEARTBEAT_TTL in tenths of a second: rounded up, so 99 ms does not become 0 (off). */
    @Test
    void heartbeatTtlIsRoundedUpToTenthsOfASecond() {
        try (Socket s = context.socket(SocketType.DEALER)) {
            int[][] setAndRead = {{1999, 2000}, {150, 200}, {99, 100}, {100, 100}, {0, 0}, {6_553_550, 6_553_500}};
            for (int[] pair : setAndRead) {
                s.setOption(SocketOption.HEARTBEAT_TTL, Duration.ofMillis(pair[0]));
                assertEquals(Duration.ofMillis(pair[1]), s.getOption(SocketOption.HEARTBEAT_TTL), pair[0] + " ms");
            }
        }
    }

    /** A subscription is not limited to 255 bytes, as libzmq's other text options are. */
    @Test
    void aSubscriptionLongerThan255BytesIsTaken() throws Exception {
        String topic = "t".repeat(300);
        try (Socket pub = context.socket(SocketType.PUB); Socket sub = context.socket(SocketType.SUB)) {
            sub.setOption(SocketOption.RCVTIMEO, Zmq.WAIT);
            sub.setOption(SocketOption.SUBSCRIBE, topic.getBytes());
            Zmq.connect(pub, sub, "inproc");
            String message = topic + " payload";
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            String got = null;
            while (got == null && System.nanoTime() < deadline) { // until the subscription reached the publisher
                pub.send("t".repeat(299)); // one byte short: filtered out
                pub.send(message);
                got = sub.recvString(RecvFlags.DONT_WAIT);
                if (got == null) {
                    Thread.onSpinWait();
                }
            }
            assertEquals(message, got);
            sub.setOption(SocketOption.UNSUBSCRIBE, topic.getBytes());
        }
    }

    /** An endpoint longer than the option buffer (a long inproc name) still reads back whole. */
    @Test
    void aLongLastEndpointReadsBackWhole() {
        String endpoint = "inproc://" + "e".repeat(300);
        try (Socket s = context.socket(SocketType.PAIR)) {
            s.bind(endpoint);
            assertEquals(endpoint, s.lastEndpoint());
        }
    }

    /**
     * A CURVE key is taken as 32 bytes or as its Z85 text, decoded here: libzmq's decoding stops at a NUL and keeps the
     * rest of the previous key, so text with a NUL in it is refused, and nothing changes.
     */
    @Test
    void curveKeyTextIsDecodedBeforeLibzmqSeesIt() {
        CurveKeyPair server = Curve.generateKeyPair();
        CurveKeyPair other = Curve.generateKeyPair();
        try (Socket s = context.socket(SocketType.DEALER)) {
            s.setOption(SocketOption.CURVE_SERVERKEY, Z85.decode(server.publicKey()));
            byte[] cut = (other.publicKey().substring(0, 35) + "\0\0\0\0\0").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThrows(IllegalArgumentException.class, () -> s.setOption(SocketOption.CURVE_SERVERKEY, cut));
            assertEquals(server.publicKey(), Z85.encode(s.getOption(SocketOption.CURVE_SERVERKEY)));
            s.setOption(SocketOption.CURVE_SERVERKEY, (other.publicKey() + "\0").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(other.publicKey(), Z85.encode(s.getOption(SocketOption.CURVE_SERVERKEY)));
        }
    }

    /** libzmq's durations are int milliseconds: a longer one is refused with its range, however long it is. */
    @ParameterizedTest
    @ValueSource(strings = {"P25D", "PT2562047788015215H30M7.999999999S"}) // the second: ChronoUnit.FOREVER's duration
    void aDurationTooLongForLibzmqIsRefusedWithItsRange(String tooLong) {
        try (Socket s = context.socket(SocketType.DEALER)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.setOption(SocketOption.RCVTIMEO, Duration.parse(tooLong)));
            assertTrue(e.getMessage().contains("RCVTIMEO must be at most 2147483647 ms"), e.getMessage());
            s.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(Integer.MAX_VALUE)); // the longest there is
            assertEquals(Duration.ofMillis(Integer.MAX_VALUE), s.getOption(SocketOption.RCVTIMEO));
        }
        context.setDefaultLinger(ChronoUnit.FOREVER.getDuration()); // lingering as long as libzmq can
        try (Socket s = context.socket(SocketType.DEALER)) {
            assertEquals(Duration.ofMillis(Integer.MAX_VALUE), s.getOption(SocketOption.LINGER));
            s.setOption(SocketOption.LINGER, Duration.ZERO);
        }
    }

    /**
     * A fraction of a millisecond rounds up, for an option, the context's default linger and a poll alike: a wait
     * lasts at least as long as asked, and a positive duration never becomes libzmq's 0 ("do not wait").
     */
    @Test
    void aFractionOfAMillisecondRoundsUp() {
        try (Socket s = context.socket(SocketType.PULL); Poller poller = new Poller()) {
            s.setOption(SocketOption.RCVTIMEO, Duration.ofNanos(1));
            assertEquals(Duration.ofMillis(1), s.getOption(SocketOption.RCVTIMEO));
            s.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(250).plusNanos(1));
            assertEquals(Duration.ofMillis(251), s.getOption(SocketOption.RCVTIMEO));
            s.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(250));
            assertEquals(Duration.ofMillis(250), s.getOption(SocketOption.RCVTIMEO));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(Integer.MAX_VALUE).plusNanos(1)));
            assertTrue(e.getMessage().contains("RCVTIMEO must be at most 2147483647 ms"), e.getMessage());

            poller.add(s, Poller.READABLE); // nothing ever arrives
            long start = System.nanoTime();
            assertEquals(0, poller.poll(Duration.ofNanos(500_000)));
            long waited = System.nanoTime() - start;
            assertTrue(waited >= 500_000, "a poll of half a millisecond returned after " + waited + " ns");
        }
        context.setDefaultLinger(Duration.ofNanos(500_000));
        try (Socket s = context.socket(SocketType.PUSH)) {
            assertEquals(Duration.ofMillis(1), s.getOption(SocketOption.LINGER));
        }
    }

    @Test
    void reqOutOfTurnSaysWhy() {
        try (Socket req = context.socket(SocketType.REQ)) {
            req.connect("inproc://nobody-yet");
            req.send("one", SendFlags.DONT_WAIT);
            ZmqException e = assertThrows(ZmqException.class, () -> req.send("two", SendFlags.DONT_WAIT));
            assertTrue(e.getMessage().contains("out of turn"), e.getMessage());
        }
    }
}
