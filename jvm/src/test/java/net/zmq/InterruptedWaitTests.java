package net.zmq;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /** Waits until the thread with this Linux thread id sleeps (state S in /proc), failing if its receive ends. */
    private static void awaitSleeping(long tid, CompletableFuture<byte[]> receive) throws Exception {
        Path stat = Path.of("/proc/self/task/" + tid + "/stat");
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (true) {
            if (receive.isDone()) {
                throw new AssertionError("the receive ended before any message was sent: "
                        + (receive.isCompletedExceptionally() ? receive.exceptionNow() : Arrays.toString(receive.get())));
            }
            String text;
            try {
                text = Files.readString(stat);
            } catch (NoSuchFileException ended) {
                continue; // the thread ended: its future says how, above
            }
            // The state follows the command name, which is in parentheses and may hold spaces.
            if (text.charAt(text.lastIndexOf(')') + 2) == 'S') {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the receiving thread never slept: " + text);
            }
            Thread.onSpinWait();
        }
    }
}
