package net.zmq;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import net.zmq.internal.LibZmq;
import net.zmq.support.Zmq;

/**
 * Run in a child JVM by ArrayCallTests: the array sends and receives, first in a process where no zero-copy message
 * exists yet (critical calls where the binding uses them, unless -Dnet.zmq.critical=false), then after one was made
 * (the ordinary calls). Prints one line per phase; any failed check throws, so the JVM exits non-zero.
 */
public final class ArrayCallProbe {
    private ArrayCallProbe() {
    }

    public static void main(String[] args) {
        try (Context context = new Context()) {
            check(context);
            try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
                Zmq.connect(a, b, "inproc");
                WeakReference<byte[]> kept = sentTwice(a, b, 32);
                try (Arena arena = Arena.ofConfined(); Message zeroCopy = new Message(arena.allocate(8), segment -> { })) {
                    expect(zeroCopy.size() == 8, "zero-copy message of 8 bytes");
                }
                expect(a.send(digits(8), SendFlags.NONE) && b.recvBytes().length == 8, "a send once sends are not critical");
                expect(Zmq.collected(kept), "once sends are not critical, the socket lets go of the arrays it kept");
            }
            check(context);
        }
    }

    private static void check(Context context) {
        boolean critical = LibZmq.criticalSendRecv();
        // Frames and buffers smaller and larger than the other side's.
        for (int frameSize : new int[] {10, 300}) {
            for (int bufferSize : new int[] {8, 294}) {
                checkFrames(context, frameSize, bufferSize);
            }
        }
        try (Socket push = Zmq.socket(context, SocketType.PUSH)) {
            for (int size : new int[] {10, 300}) {
                byte[] data = digits(size);
                expect(!push.send(data, SendFlags.DONT_WAIT), "a PUSH without a peer refuses a frame: false");
                expect(!push.send(data, 1, size - 3, SendFlags.DONT_WAIT_SEND_MORE), "and a range of one");
            }
        }
        try (Socket req = Zmq.socket(context, SocketType.REQ); Socket rep = Zmq.socket(context, SocketType.REP)) {
            Zmq.connect(rep, req, "inproc");
            for (int size : new int[] {10, 300}) {
                ZmqException early = expectThrows(ZmqException.class, () -> req.recv(new byte[size], RecvFlags.DONT_WAIT));
                expect(early.getMessage().contains("out of turn"), "EFSM explained: " + early.getMessage());
            }
            expect(req.send(digits(10), SendFlags.NONE), "a request");
            expectThrows(ZmqException.class, () -> req.send(digits(10), SendFlags.DONT_WAIT));
            expectThrows(ZmqException.class, () -> req.send(digits(300), SendFlags.NONE));
        }
        checkFlowControl(context);
        checkReusedArrays(context);
        checkKeptArrays(context);
        checkRangeSendsAllocateNothing(context);
        System.out.println("array calls checked, critical=" + critical);
    }

    /**
     * Blocking array sends that find no room (inproc, high-water marks of 1: the first, non-blocking try fails on
     * most frames) wait, with a send timeout and without one, and every frame arrives once and in order; one frame is
     * larger than the binding sends straight from its array. Frames go in turns as a whole array (tried straight from
     * it first) and as a range inside a larger one (built in native memory).
     */
    private static void checkFlowControl(Context context) {
        for (Duration sendTimeout : Arrays.asList(Zmq.WAIT, null)) {
            checkFlowControl(context, sendTimeout);
        }
    }

    private static void checkFlowControl(Context context, Duration sendTimeout) {
        int frames = 400;
        int large = 200;
        String what = " (send timeout " + sendTimeout + ")";
        try (Socket push = Zmq.socket(context, SocketType.PUSH); Socket pull = Zmq.socket(context, SocketType.PULL)) {
            push.setOption(SocketOption.SNDHWM, 1);
            push.setOption(SocketOption.SNDTIMEO, sendTimeout);
            pull.setOption(SocketOption.RCVHWM, 1);
            Zmq.connect(pull, push, "inproc");
            AtomicReference<Throwable> failure = new AtomicReference<>();
            // A daemon: a sender stuck without a timeout must not keep this JVM from exiting with the failure.
            Thread sender = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (int i = 0; i < frames; i++) {
                        byte[] data = framed(i, frameSize(i, large));
                        // The array's ends are not sent.
                        boolean queued = i % 2 == 0 ? push.send(Arrays.copyOfRange(data, 1, data.length - 1), SendFlags.NONE)
                                : push.send(data, 1, data.length - 2, SendFlags.NONE);
                        expect(queued, "frame " + i + " queued" + what);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            byte[] buffer = new byte[frameSize(large, large) + 1];
            for (int i = 0; i < frames; i++) {
                int size = pull.recv(buffer);
                byte[] sent = framed(i, frameSize(i, large));
                expect(size == sent.length - 2 && Arrays.equals(sent, 1, sent.length - 1, buffer, 0, size),
                        "frame " + i + " arrived whole, in order (" + size + " B)" + what + "; the sender: " + failure.get());
            }
            join(sender);
            expect(failure.get() == null, "the sender finished" + what + ": " + failure.get());
        }
    }

    /** Two arrays sent in turns, changed before each send (as a routing id and a payload buffer are): each frame carries the change. */
    private static void checkReusedArrays(Context context) {
        byte[] first = new byte[4];
        byte[] second = new byte[40];
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "inproc");
            for (int i = 0; i < 20; i++) {
                byte[] array = i % 2 == 0 ? first : second;
                Arrays.fill(array, (byte) i);
                expect(a.send(array, SendFlags.NONE), "reused array sent, round " + i);
                byte[] received = b.recvBytes();
                expect(Arrays.equals(array, received), "round " + i + "'s content arrived, not an earlier one's");
            }
        }
    }

    /**
     * The arrays a socket keeps: not one larger than 64 KiB, and none once it is closed (while it is still
     * referenced).
     */
    private static void checkKeptArrays(Context context) {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "inproc");
            expect(Zmq.collected(sentTwice(a, b, (64 << 10) + 1)), "an array over 64 KiB sent twice is not kept");
            WeakReference<byte[]> kept = sentTwice(a, b, 32);
            a.close();
            expect(Zmq.collected(kept), "the closed socket let go of the array it sent");
        }
    }

    /**
     * A range from inside an array, sent over and over once the JIT has compiled the send, allocates nothing per send:
     * the bytes this thread allocated over many sends, averaged, stay under 8 per send (a segment sliced from the
     * array's for each send cost 40).
     */
    private static void checkRangeSendsAllocateNothing(Context context) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] data = digits(100);
        // No subscriber: each send succeeds and drops the frame. No send timeout either: a timed send that finds no
        // room captures errno, whose segment the JIT may or may not remove (see LibZmq).
        try (Socket pub = context.socket(SocketType.PUB)) {
            for (int i = 0; i < 300_000; i++) {
                pub.send(data, 8, 64, SendFlags.NONE);
            }
            int sends = 100_000;
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < sends; i++) {
                pub.send(data, 8, 64, SendFlags.NONE);
            }
            double perSend = (double) (threads.getCurrentThreadAllocatedBytes() - before) / sends;
            expect(perSend < 8, "a range send allocates nothing once compiled (" + perSend + " B per send)");
        }
    }

    /** Sends a new array of size bytes twice from a to b; returns a weak reference to it. */
    private static WeakReference<byte[]> sentTwice(Socket a, Socket b, int size) {
        byte[] array = digits(size);
        for (int i = 0; i < 2; i++) {
            expect(a.send(array, SendFlags.NONE) && b.recvBytes().length == size, size + " B array sent, round " + i);
        }
        return new WeakReference<>(array);
    }

    private static int frameSize(int i, int large) {
        return i == large ? (3 << 19) : i % 3 == 0 ? 300 : 10;
    }

    /** A frame of size bytes between two marker bytes, its bytes telling its number. */
    private static byte[] framed(int number, int size) {
        byte[] data = new byte[size + 2];
        Arrays.fill(data, (byte) number);
        data[0] = 'x';
        data[size + 1] = 'x';
        return data;
    }

    private static void join(Thread thread) {
        try {
            thread.join(Zmq.WAIT.toMillis());
        } catch (InterruptedException e) {
            throw new AssertionError("interrupted", e);
        }
        expect(!thread.isAlive(), "the sender finished within " + Zmq.WAIT);
    }

    /** Ranges, truncation and EAGAIN for frames of frameSize received into buffers of bufferSize. */
    private static void checkFrames(Context context, int frameSize, int bufferSize) {
        String what = " (frame " + frameSize + " B, buffer " + bufferSize + " B)";
        byte[] data = digits(frameSize);
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "inproc");
            expect(a.send(data, 2, frameSize - 5, SendFlags.NONE), "a range of an array sent" + what);
            expect(Arrays.equals(Arrays.copyOfRange(data, 2, frameSize - 3), b.recvBytes()), "the range, and only it, arrived" + what);
            expect(a.send(data, 0, frameSize - 3, SendFlags.NONE), "an array's first bytes sent" + what);
            expect(Arrays.equals(Arrays.copyOfRange(data, 0, frameSize - 3), b.recvBytes()), "those bytes, and only they, arrived" + what);

            // The first frame, received waiting, puts the second (sent before it returned) within a non-waiting reach.
            expect(a.send(data, SendFlags.DONT_WAIT_SEND_MORE), "a frame sent without waiting" + what);
            expect(a.send(data, SendFlags.DONT_WAIT), "a second frame sent without waiting" + what);
            byte[] buffer = filled(bufferSize);
            expect(b.recv(buffer) == frameSize, "a receive returns the frame's full size" + what);
            int kept = Math.min(frameSize, bufferSize);
            expect(Arrays.equals(data, 0, kept, buffer, 0, kept), "what fits was kept" + what);
            expect(Arrays.equals(filled(bufferSize - kept), 0, bufferSize - kept, buffer, kept, bufferSize), "nothing written past the frame" + what);

            buffer = filled(bufferSize);
            int length = bufferSize - 4;
            expect(b.recv(buffer, 2, length, RecvFlags.DONT_WAIT) == frameSize, "a receive that does not wait returns the full size" + what);
            kept = Math.min(frameSize, length);
            expect(Arrays.equals(data, 0, kept, buffer, 2, 2 + kept), "the frame's start, in the range" + what);
            expect(buffer[0] == 'x' && buffer[1] == 'x' && buffer[bufferSize - 1] == 'x' && buffer[bufferSize - 2] == 'x',
                    "nothing written outside the range" + what);
            expect(b.recv(buffer, RecvFlags.DONT_WAIT) == -1, "nothing queued: -1" + what);
            expectThrows(IndexOutOfBoundsException.class, () -> a.send(data, frameSize - 2, 3, SendFlags.NONE));
            expectThrows(IndexOutOfBoundsException.class, () -> b.recv(new byte[bufferSize], -1, 2, RecvFlags.DONT_WAIT));
        }
    }

    private static byte[] digits(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) ('0' + i % 10);
        }
        return data;
    }

    private static byte[] filled(int size) {
        byte[] buffer = new byte[size];
        Arrays.fill(buffer, (byte) 'x');
        return buffer;
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("failed: " + what);
        }
    }

    private static <T extends Throwable> T expectThrows(Class<T> type, Runnable call) {
        try {
            call.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + type.getSimpleName() + ", nothing thrown");
    }
}
