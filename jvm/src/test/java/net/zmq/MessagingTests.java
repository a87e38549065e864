package net.zmq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Multipart, truncation, EAGAIN results, Message and zero-copy. */
class MessagingTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void multipartKeepsFramesInOrder() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "tcp");
            assertTrue(a.sendMultipart(MultipartMessage.of("one", "", "three")));
            MultipartMessage m = b.recvMultipart();
            assertEquals(3, m.size());
            assertEquals("one", m.getString(0));
            assertEquals(0, m.get(1).length);
            assertEquals("three", m.getString(2));
            a.sendMore("x".getBytes());
            a.send("y");
            assertEquals("x", b.recvString());
            assertTrue(b.hasMore());
            assertEquals("y", b.recvString());
            assertFalse(b.hasMore());
        }
    }

    @Test
    void emptyMultipartIsRefused() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR)) {
            assertThrows(IllegalArgumentException.class, () -> a.sendMultipart(new MultipartMessage()));
        }
    }

    @Test
    void truncationReturnsTheFullSize() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "inproc");
            a.send("0123456789");
            byte[] small = new byte[4];
            assertEquals(10, b.recv(small));
            assertArrayEquals("0123".getBytes(), small);
            a.send("ab");
            byte[] big = new byte[8];
            assertEquals(2, b.recv(big, 2, 4, RecvFlags.NONE));
            assertEquals('a', big[2]);
        }
    }

    @Test
    void eagainIsAResultNotAnException() {
        try (Socket pull = Zmq.socket(context, SocketType.PULL); Socket push = context.socket(SocketType.PUSH);
             Message message = new Message()) {
            pull.bind("inproc://eagain");
            assertEquals(-1, pull.recv(new byte[8], RecvFlags.DONT_WAIT));
            assertNull(pull.recvBytes(RecvFlags.DONT_WAIT));
            assertNull(pull.recvMultipart(RecvFlags.DONT_WAIT));
            assertFalse(pull.recv(message, RecvFlags.DONT_WAIT));
            // A PUSH without a peer cannot queue anything.
            assertFalse(push.send("x".getBytes(), SendFlags.DONT_WAIT));
            try (Message out = new Message("kept")) {
                assertFalse(push.send(out, SendFlags.DONT_WAIT));
                assertEquals("kept", out.text()); // a refused message keeps its content
            }
        }
    }

    @Test
    void receiveTimeoutReturnsNoFrame() {
        try (Socket pull = context.socket(SocketType.PULL)) {
            pull.bind("inproc://timeout");
            pull.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(50));
            long start = System.nanoTime();
            assertNull(pull.recvString());
            assertTrue(System.nanoTime() - start >= 40_000_000L);
        }
    }

    @Test
    void messageSendsAndReceivesWithoutCopiesIntoJava() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR);
             Message out = new Message(5); Message in = new Message()) {
            Zmq.connect(a, b, "tcp");
            out.data().copyFrom(MemorySegment.ofArray("hello".getBytes()));
            assertTrue(a.send(out, SendFlags.NONE));
            assertEquals(0, out.size()); // sent: libzmq took the content
            assertTrue(b.recv(in, RecvFlags.NONE));
            assertEquals("hello", in.text());
            assertFalse(in.more());
            in.rebuild(3);
            assertEquals(3, in.size());
        }
    }

    /** A frame of 2 GiB or more is neither counted in an int nor copied into an array: both say how to read it. */
    @Test
    void aFrameTooLargeForAnArraySaysHowToReadIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment huge = arena.allocate(8).reinterpret(1L << 31); // never read: only its size is asked for
            try (Message m = new Message(huge, segment -> { })) {
                assertEquals(1L << 31, m.data().byteSize());
                IllegalStateException size = assertThrows(IllegalStateException.class, m::size);
                assertTrue(size.getMessage().contains("2147483648 bytes") && size.getMessage().contains("data()"), size.getMessage());
                IllegalStateException copy = assertThrows(IllegalStateException.class, m::toByteArray);
                assertTrue(copy.getMessage().contains("does not fit in a Java array"), copy.getMessage());
            }
        }
    }

    /** A multipart receive that meets a frame too large for an array drops its whole message, not just that frame. */
    @Test
    void aMultipartReceiveThatMeetsAFrameTooLargeForAnArrayDropsTheWholeMessage() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR);
             Arena arena = Arena.ofConfined()) {
            Zmq.connect(a, b, "inproc"); // inproc passes the frame on without reading it
            MemorySegment huge = arena.allocate(8).reinterpret(1L << 31); // never read
            try (Message m = new Message(huge, segment -> { })) {
                assertTrue(a.send(m, SendFlags.SEND_MORE));
            }
            assertTrue(a.send("tail of the huge message"));
            assertTrue(a.send("next message"));
            IllegalStateException tooLarge = assertThrows(IllegalStateException.class, () -> b.recvMultipart());
            assertTrue(tooLarge.getMessage().contains("does not fit in a Java array"), tooLarge.getMessage());
            MultipartMessage next = b.recvMultipart(RecvFlags.DONT_WAIT);
            assertNotNull(next, "the next message was dropped too");
            assertEquals(1, next.size());
            assertEquals("next message", next.getString(0));
        }
    }

    /** A metadata property is read whole however long it is: here one of 5,000 bytes that a ZAP handler gave. */
    @Test
    void aLongMetadataPropertyIsReadWhole() {
        String value = "v".repeat(5000);
        try (Socket zap = Zmq.socket(context, SocketType.REP); Socket server = Zmq.socket(context, SocketType.PULL);
             Socket client = Zmq.socket(context, SocketType.PUSH); Message received = new Message()) {
            zap.bind("inproc://zeromq.zap.01"); // this test answers libzmq's ZAP request itself
            server.setOption(SocketOption.ZAP_DOMAIN, "test"); // so that libzmq asks about a NULL connection
            Zmq.connect(server, client, "tcp");
            assertTrue(client.send("hello"));
            MultipartMessage request = zap.recvMultipart();
            assertEquals("1.0", request.getString(0));
            ByteBuffer metadata = ByteBuffer.allocate(1 + 5 + 4 + value.length()); // ZMTP: name length, name, value length, value
            metadata.put((byte) 5).put("X-Big".getBytes()).putInt(value.length()).put(value.getBytes());
            assertTrue(zap.sendMultipart(MultipartMessage.of("1.0", request.getString(1), "200", "OK", "someone")
                    .add(metadata.array())));
            assertTrue(server.recv(received, RecvFlags.NONE));
            assertEquals("hello", new String(received.toByteArray()));
            assertEquals(value, received.property("X-Big"));
            assertEquals("someone", received.property("User-Id"));
        }
    }

    @Test
    void zeroCopyCallbackRunsOnceAfterDelivery() throws Exception {
        CountDownLatch freed = new CountDownLatch(1);
        MemorySegment[] released = new MemorySegment[1];
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR);
             Arena arena = Arena.ofShared()) {
            Zmq.connect(a, b, "tcp");
            MemorySegment data = arena.allocate(1000);
            data.fill((byte) 7);
            try (Message m = new Message(data, segment -> {
                released[0] = segment;
                freed.countDown();
            })) {
                assertTrue(a.send(m, SendFlags.NONE));
            }
            byte[] got = b.recvBytes();
            assertEquals(1000, got.length);
            assertEquals(7, got[999]);
            assertTrue(freed.await(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            assertEquals(data, released[0]);
        }
    }

    @Test
    void aReceivedFrameOver64KiBIsLetGoAsTheReceiveReturns() {
        // Over inproc the receiver's frame is the sender's zero-copy memory itself: its free callback shows when the
        // receiving socket lets the frame go.
        int[] freed = {0};
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR);
             Arena arena = Arena.ofShared()) {
            Zmq.connect(a, b, "inproc");
            MemorySegment data = arena.allocate((64 << 10) + 1);
            for (String receive : new String[] {"recv", "recvBytes", "recvMultipart"}) {
                int before = freed[0];
                try (Message m = new Message(data, segment -> freed[0]++)) {
                    assertTrue(a.send(m, SendFlags.NONE));
                }
                assertEquals(before, freed[0], "freed before it was received");
                long received = switch (receive) {
                    case "recv" -> b.recv(new byte[16]);
                    case "recvBytes" -> b.recvBytes().length;
                    default -> b.recvMultipart().get(0).length;
                };
                assertEquals(data.byteSize(), received);
                assertEquals(before + 1, freed[0], "the socket still holds the frame after " + receive + " returned");
            }
        }
    }

    @Test
    void zeroCopyClosedUnsentFreesAtOnce() {
        int[] calls = {0};
        try (Arena arena = Arena.ofConfined()) {
            Message m = new Message(arena.allocate(64), segment -> calls[0]++);
            m.close();
            assertEquals(1, calls[0]);
            m.close();
            assertEquals(1, calls[0]);
            assertThrows(IllegalStateException.class, m::size);
        }
        assertThrows(IllegalArgumentException.class, () -> new Message(MemorySegment.ofArray(new byte[4]), s -> { }));
    }

    @Test
    void zeroCopyCallbacksUnderLoadAllRun() throws Exception {
        int count = 5000;
        CountDownLatch freed = new CountDownLatch(count);
        try (Socket push = Zmq.socket(context, SocketType.PUSH); Socket pull = Zmq.socket(context, SocketType.PULL);
             Arena arena = Arena.ofShared()) {
            Zmq.connect(pull, push, "tcp");
            MemorySegment data = arena.allocate(64);
            for (int i = 0; i < count; i++) {
                try (Message m = new Message(data, segment -> freed.countDown())) {
                    push.send(m, SendFlags.NONE);
                }
            }
            byte[] buffer = new byte[64];
            for (int i = 0; i < count; i++) {
                assertEquals(64, pull.recv(buffer));
            }
            assertTrue(freed.await(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            assertEquals(0, ZeroCopy.pendingCount());
        }
    }

    @Test
    void nativeSegmentSendAndReceive() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR);
             Arena arena = Arena.ofConfined()) {
            Zmq.connect(a, b, "inproc");
            MemorySegment out = arena.allocateFrom(ValueLayout.JAVA_INT, 1, 2, 3);
            assertTrue(a.send(out, SendFlags.NONE));
            MemorySegment in = arena.allocate(16);
            assertEquals(12, b.recv(in, RecvFlags.NONE));
            assertEquals(3, in.getAtIndex(ValueLayout.JAVA_INT, 2));
        }
    }
}
