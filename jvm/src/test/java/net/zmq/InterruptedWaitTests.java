package net.zmq;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A signal that lands while libzmq waits in a blocking call makes its poll fail with EINTR; the call waits on. The
 * signal is SIGPIPE, which the JVM handles by ignoring it: it interrupts the system call and does nothing else.
 */
@EnabledOnOs(OS.LINUX)
class InterruptedWaitTests {
    private static final int SIGPIPE = 13;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PTHREAD_SELF = libc("pthread_self", FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle PTHREAD_KILL = libc("pthread_kill", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle GETTID = libc("gettid", FunctionDescriptor.of(JAVA_INT));

    private static MethodHandle libc(String name, FunctionDescriptor type) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), type);
    }

    /** With no timeout (a receive that cannot meet EAGAIN) and with one (the call must tell EINTR from its timeout). */
    @ParameterizedTest
    @ValueSource(ints = {-1, 60_000})
    void aSignalDuringABlockingReceiveDoesNotEndIt(int timeoutMs) throws Throwable {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL);
             Socket push = Zmq.socket(context, SocketType.PUSH)) {
            pull.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(timeoutMs));
            Zmq.connect(pull, push, "inproc");
            CompletableFuture<long[]> thread = new CompletableFuture<>();
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try {
                    thread.complete(new long[] {(long) PTHREAD_SELF.invokeExact(), (int) GETTID.invokeExact()});
                } catch (Throwable t) {
                    thread.completeExceptionally(t);
                }
                return pull.recvBytes();
            }, r -> Thread.ofPlatform().start(r));
            long[] ids = thread.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            for (int i = 0; i < 5; i++) {
                awaitSleeping(ids[1], received); // in libzmq's poll: the receive has begun and found nothing
                assertEquals(0, (int) PTHREAD_KILL.invokeExact(ids[0], SIGPIPE));
            }
            push.send("after the signals");
            assertArrayEquals("after the signals".getBytes(StandardCharsets.UTF_8),
                    received.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    /**
     * A call with a timeout, interrupted again and again, still times out when its timeout has passed: after a signal
     * it waits for what is left, not the whole timeout anew (which signals coming faster than the timeout, as a
     * wall-clock profiler's do, would keep from ever ending).
     */
    @ParameterizedTest
    @ValueSource(strings = {"recv", "send", "poll", "recv on a CLIENT"})
    void aCallWithATimeoutTimesOutUnderSignalsThatKeepComing(String kind) throws Throwable {
        int timeoutMs = 300;
        SocketType type = switch (kind) {
            case "send" -> SocketType.PUSH;
            case "recv on a CLIENT" -> SocketType.CLIENT; // thread-safe: waits through a zmq_poller
            default -> SocketType.PULL;
        };
        try (Context context = new Context(); Socket socket = context.socket(type);
             Poller poller = new Poller()) {
            socket.bind("inproc://interrupted-timeout-" + kind); // no peer: nothing arrives, a send has nowhere to go
            socket.setOption(kind.equals("send") ? SocketOption.SNDTIMEO : SocketOption.RCVTIMEO, Duration.ofMillis(timeoutMs));
            poller.add(socket, kind.equals("send") ? Poller.WRITABLE : Poller.READABLE);
            CompletableFuture<long[]> thread = new CompletableFuture<>();
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                try {
                    thread.complete(new long[] {(long) PTHREAD_SELF.invokeExact(), (int) GETTID.invokeExact()});
                } catch (Throwable t) {
                    thread.completeExceptionally(t);
                }
                long start = System.nanoTime();
                Object result = switch (kind) {
                    case "recv", "recv on a CLIENT" -> socket.recvBytes();
                    case "send" -> socket.send("nowhere");
                    default -> poller.poll(Duration.ofMillis(timeoutMs));
                };
                return result + " after " + (System.nanoTime() - start) / 1_000_000 + " ms";
            }, r -> Thread.ofPlatform().start(r));
            long[] ids = thread.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            long stop = System.nanoTime() + Zmq.WAIT.toNanos();
            int signals = 0;
            while (!call.isDone() && System.nanoTime() < stop) {
                if (sleeping(ids[1])) { // in libzmq's poll
                    assertEquals(0, (int) PTHREAD_KILL.invokeExact(ids[0], SIGPIPE));
                    signals++;
                }
                LockSupport.parkNanos(5_000_000); // paces the signals: one every few milliseconds while the call waits
            }
            String outcome = call.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            String timedOut = switch (kind) {
                case "recv", "recv on a CLIENT" -> "null";
                case "send" -> "false";
                default -> "0";
            };
            assertTrue(outcome.startsWith(timedOut + " after "), outcome);
            long tookMs = Long.parseLong(outcome.replaceAll(".* after (\\d+) ms", "$1"));
            assertTrue(tookMs >= timeoutMs - 10 && tookMs < 3 * timeoutMs, "the " + kind + " returned " + outcome
                    + " with a " + timeoutMs + " ms timeout and " + signals + " signals");
            assertTrue(signals >= 3, "only " + signals + " signals landed during the " + kind);
        }
    }

    /** Waits until the thread with this Linux thread id sleeps (state S in /proc), failing if its receive ends. */
    private static void awaitSleeping(long tid, CompletableFuture<byte[]> receive) throws Exception {
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (!sleeping(tid)) {
            if (receive.isDone()) {
                throw new AssertionError("the receive ended before any message was sent: "
                        + (receive.isCompletedExceptionally() ? receive.exceptionNow() : Arrays.toString(receive.get())));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the receiving thread never slept");
            }
            Thread.onSpinWait();
        }
    }

    /** Whether the thread with this Linux thread id sleeps (state S in /proc; false once it has ended). */
    private static boolean sleeping(long tid) throws java.io.IOException {
        String text;
        try {
            text = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        } catch (NoSuchFileException ended) {
            return false;
        }
        // The state follows the command name, which is in parentheses and may hold spaces.
        return text.charAt(text.lastIndexOf(')') + 2) == 'S';
    }
}
