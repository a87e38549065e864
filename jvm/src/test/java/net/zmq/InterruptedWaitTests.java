package net.zmq;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.management.ManagementFactory;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import net.zmq.support.ChildJvm;
import net.zmq.support.Emulation;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;
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

    /**
     * On a virtual thread a wait reads ZMQ_EVENTS at each wake, which polls the socket's mailbox: a signal there fails
     * that read with EINTR, and the wait goes on. In a child JVM with one carrier, which the probe signals.
     */
    @Test
    void aSignalWhileAVirtualThreadsWaitReadsTheSocketsEventsDoesNotEndIt() throws Exception {
        ChildJvm.Outcome outcome = ChildJvm.run(SignalledWaitProbe.class, "-Djdk.virtualThreadScheduler.parallelism=1");
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("received 'after the storm'"), outcome.out());
    }

    /** With no timeout (a receive that cannot meet EAGAIN) and with one (the call must tell EINTR from its timeout). */
    @ParameterizedTest
    @ValueSource(ints = {-1, 60_000})
    void aSignalDuringABlockingReceiveDoesNotEndIt(int timeoutMs) throws Throwable {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL);
             Socket push = Zmq.socket(context, SocketType.PUSH)) {
            pull.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(timeoutMs));
            Zmq.connect(pull, push, "inproc");
            Caller<byte[]> receiver = callOnAThread(pull::recvBytes);
            CompletableFuture<byte[]> received = receiver.call();
            for (int i = 0; i < 5; i++) {
                awaitSleeping(receiver.tid(), received); // in libzmq's poll: the receive has begun and found nothing
                receiver.signal();
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
            Caller<String> caller = callOnAThread(() -> {
                long start = System.nanoTime();
                Object result = switch (kind) {
                    case "recv", "recv on a CLIENT" -> socket.recvBytes();
                    case "send" -> socket.send("nowhere");
                    default -> poller.poll(Duration.ofMillis(timeoutMs));
                };
                return result + " after " + (System.nanoTime() - start) / 1_000_000 + " ms";
            });
            CompletableFuture<String> call = caller.call();
            long stop = System.nanoTime() + Zmq.WAIT.toNanos();
            int signals = 0;
            while (!call.isDone() && System.nanoTime() < stop) {
                if (sleeping(caller.tid())) { // in libzmq's poll
                    caller.signal();
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

    /**
     * A send that its socket reads writable for but refuses (a mandatory ROUTER's to one full peer while another has
     * room) waits out its timeout with pauses between tries instead of spinning on a core: on a platform thread after a
     * signal (then the binding waits, not libzmq), and on a virtual thread (which always waits in the binding); also
     * on a thread whose interrupt status is set (which ends a park at once), and which keeps that status.
     */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "interrupted platform", "interrupted virtual"})
    void aSendRefusedWhileItsSocketReadsWritableWaitsOutItsTimeoutWithoutSpinning(String thread) throws Throwable {
        try (Context context = new Context(); Socket router = context.socket(SocketType.ROUTER);
             Socket full = context.socket(SocketType.DEALER); Socket roomy = context.socket(SocketType.DEALER)) {
            router.setOption(SocketOption.ROUTER_MANDATORY, true);
            router.setOption(SocketOption.SNDHWM, 1);
            router.bind("inproc://refused-while-writable");
            byte[] fullId = "full".getBytes(StandardCharsets.UTF_8);
            for (Socket dealer : new Socket[] {full, roomy}) {
                dealer.setOption(SocketOption.RCVHWM, 1);
                dealer.setOption(SocketOption.ROUTING_ID, dealer == full ? fullId : "roomy".getBytes(StandardCharsets.UTF_8));
                dealer.connect("inproc://refused-while-writable");
                dealer.send("hello"); // the router knows the peer once it has received from it
                assertNotNull(router.recvBytes());
                assertNotNull(router.recvBytes());
            }
            for (int queued = 0; router.send(fullId, SendFlags.DONT_WAIT_SEND_MORE); queued++) { // until its pipe is full
                router.send("x");
                assertTrue(queued < 10_000, "the peer's pipe never filled");
            }
            router.setOption(SocketOption.SNDTIMEO, Duration.ofMillis(500));
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu = os.getProcessCpuTime();
            boolean interrupted = thread.startsWith("interrupted");
            Supplier<String> send = () -> {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                boolean sent = router.send(fullId, SendFlags.SEND_MORE);
                return sent + (interrupted && !Thread.currentThread().isInterrupted() ? ", interrupt status lost" : "");
            };
            String outcome;
            if (thread.endsWith("platform")) {
                Caller<String> sender = callOnAThread(send);
                awaitSleeping(sender.tid(), sender.call()); // in libzmq's blocking send
                sender.signal(); // from here on the binding waits out the timeout, the router reading writable throughout
                outcome = sender.call().get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } else {
                CompletableFuture<String> sent = new CompletableFuture<>();
                Thread.ofVirtual().start(() -> sent.complete(send.get()));
                outcome = sent.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            long cpuMs = (os.getProcessCpuTime() - cpu) / 1_000_000;
            assertEquals("false", outcome, "the refused send did not time out, or lost its thread's interrupt status");
            if (!Emulation.underQemu()) { // there the emulator's own translation and slowness use the CPU: no measure of a spin
                assertTrue(cpuMs < 250, "this process used " + cpuMs + " ms of CPU during the refused send's 500 ms timeout");
            }
        }
    }

    /**
     * A steerable proxy that a signal interrupts while paused (libzmq's proxy then returns EINTR, and the binding runs
     * it again, afresh) stays paused: nothing is forwarded until RESUME, and its commands are answered meanwhile.
     */
    @Test
    void aPausedSteerableProxyStaysPausedWhenSignalsInterruptIt() throws Throwable {
        try (Context context = new Context(); Socket frontend = context.socket(SocketType.PULL);
             Socket backend = context.socket(SocketType.PUSH); Socket producer = context.socket(SocketType.PUSH);
             Socket consumer = context.socket(SocketType.PULL); ProxyController controller = new ProxyController(context)) {
            frontend.bind("inproc://interrupted-proxy-front");
            backend.bind("inproc://interrupted-proxy-back");
            producer.connect("inproc://interrupted-proxy-front");
            consumer.connect("inproc://interrupted-proxy-back");
            Caller<Void> proxyThread = callOnAThread(() -> {
                Proxy.runSteerable(frontend, backend, null, controller);
                return null;
            });
            CompletableFuture<Void> proxy = proxyThread.call();
            producer.send("first");
            assertEquals("first", consumer.recvString());
            controller.pause();
            controller.statistics(); // answered in order: the pause is in force
            for (int i = 0; i < 5; i++) {
                awaitSleeping(proxyThread.tid(), proxy); // waiting in libzmq: the proxy's wait, or (after a signal) its pause's
                proxyThread.signal();
            }
            producer.send("held");
            consumer.setOption(SocketOption.RCVTIMEO, Zmq.SHORT);
            assertNull(consumer.recvString(), "forwarded while paused");
            assertEquals(0, controller.statistics().backendMessagesOut()); // counted since the proxy ran again
            controller.resume();
            consumer.setOption(SocketOption.RCVTIMEO, Zmq.WAIT);
            assertEquals("held", consumer.recvString());
            controller.terminate();
            proxy.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** A call running on its own platform thread, with that thread's pthread_t and Linux thread id. */
    private record Caller<T>(CompletableFuture<T> call, long pthread, long tid) {
        /** Sends SIGPIPE to the calling thread. */
        void signal() throws Throwable {
            assertEquals(0, (int) PTHREAD_KILL.invokeExact(pthread, SIGPIPE));
        }
    }

    /** Starts call on a new platform thread; returns once that thread has given its ids. */
    private static <T> Caller<T> callOnAThread(Supplier<T> call) throws Exception {
        CompletableFuture<long[]> thread = new CompletableFuture<>();
        CompletableFuture<T> result = CompletableFuture.supplyAsync(() -> {
            try {
                thread.complete(new long[] {(long) PTHREAD_SELF.invokeExact(), (int) GETTID.invokeExact()});
            } catch (Throwable t) {
                thread.completeExceptionally(t);
            }
            return call.get();
        }, r -> Thread.ofPlatform().start(r));
        long[] ids = thread.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return new Caller<>(result, ids[0], ids[1]);
    }

    /** Waits until the thread with this Linux thread id sleeps (state S in /proc), failing if its call ends. */
    private static void awaitSleeping(long tid, CompletableFuture<?> call) throws Exception {
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (!sleeping(tid)) {
            if (call.isDone()) {
                throw new AssertionError("the call ended before it was answered: "
                        + (call.isCompletedExceptionally() ? call.exceptionNow()
                                : call.get() instanceof byte[] frame ? Arrays.toString(frame) : String.valueOf(call.get())));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the calling thread never slept");
            }
            Thread.onSpinWait();
        }
    }

    /** Whether the thread with this Linux thread id sleeps (state S in /proc; false once it has ended). */
    private static boolean sleeping(long tid) {
        String text;
        try {
            text = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        } catch (IOException ended) { // no such file, or ESRCH as the thread ended while its file was read
            return false;
        }
        // The state follows the command name, which is in parentheses and may hold spaces.
        return text.charAt(text.lastIndexOf(')') + 2) == 'S';
    }
}
