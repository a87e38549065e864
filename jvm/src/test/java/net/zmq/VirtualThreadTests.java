package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import net.zmq.support.ChildJvm;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Blocking calls on virtual threads park instead of pinning their carrier. */
class VirtualThreadTests {
    private static final int THREADS = 10_000;
    private static final int EADDRINUSE = 98; // Linux's, where these tests run

    @Test
    void tenThousandVirtualThreadsBlockedInRecvAllGetTheirAnswer() throws Exception {
        answerWaitingThreads(THREADS, "recv", Socket::recvString); // blocks: no message yet
        // Closing hands 10,000 sockets to libzmq's reaper; their descriptors go as it gets through them. Wait (bounded)
        // until they are gone: it shows nothing leaked, and the next tests start with the descriptors they need.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long open;
        while ((open = openDescriptors()) > THREADS / 2 && System.nanoTime() < deadline) {
            Thread.sleep(50); // polling an observable state, bounded by the deadline
        }
        assertTrue(open <= THREADS / 2, open + " descriptors still open a minute after closing the sockets");
    }

    @Test
    void virtualThreadsWaitingInPollDoNotPinTheirCarriers() throws Exception {
        answerWaitingThreads(1_000, "poll", receiver -> {
            try (Poller poller = new Poller()) {
                poller.add(receiver, Poller.READABLE);
                boolean readable = poller.poll(null) == 1 && poller.isReadable(0); // waits: nothing sent yet
                return readable ? receiver.recvString(RecvFlags.DONT_WAIT) : "not readable";
            }
        });
    }

    /**
     * One virtual thread per DEALER socket, each waiting for its answer through wait; once all of them are waiting (a
     * wait that pinned its carrier would leave only the default parallelism's threads able to get there), one ROUTER
     * answers each, addressed by the routing id it gave the connection: every answer must arrive, on at most that many
     * carriers. One ROUTER for all because each socket holds a descriptor and the process may have only so many.
     */
    private static void answerWaitingThreads(int threads, String name, Function<Socket, String> wait) throws Exception {
        int parallelism = Runtime.getRuntime().availableProcessors(); // the default carrier pool size
        Set<String> carriers = ConcurrentHashMap.newKeySet();
        AtomicInteger answered = new AtomicInteger();
        try (Context context = new Context(1, threads + 100)) {
            context.setDefaultLinger(Duration.ZERO);
            Socket sender = context.socket(SocketType.ROUTER);
            Socket[] receivers = new Socket[threads];
            for (int i = 0; i < threads; i++) {
                receivers[i] = context.socket(SocketType.DEALER);
                receivers[i].bind("inproc://vt-" + name + "-" + i);
                sender.setOption(SocketOption.CONNECT_ROUTING_ID, ("r" + i).getBytes());
                sender.connect("inproc://vt-" + name + "-" + i);
            }
            sender.setOption(SocketOption.ROUTER_MANDATORY, true);
            CountDownLatch waiting = new CountDownLatch(threads);
            CountDownLatch done = new CountDownLatch(threads);
            for (int i = 0; i < threads; i++) {
                Socket receiver = receivers[i];
                String expected = "answer " + i;
                Thread.ofVirtual().start(() -> {
                    waiting.countDown();
                    String answer = wait.apply(receiver);
                    String carrier = Thread.currentThread().toString();
                    carriers.add(carrier.substring(carrier.indexOf('@') + 1));
                    if (expected.equals(answer)) {
                        answered.incrementAndGet();
                    }
                    done.countDown();
                });
            }
            assertTrue(waiting.await(60, TimeUnit.SECONDS), "only " + (threads - waiting.getCount()) + " virtual threads ran");
            for (int i = 0; i < threads; i++) {
                sender.sendMore(("r" + i).getBytes());
                sender.send("answer " + i);
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), done.getCount() + " answers never arrived");
            assertEquals(threads, answered.get());
            assertTrue(carriers.size() <= parallelism, "carriers used: " + carriers);
            for (Socket receiver : receivers) {
                receiver.close();
            }
            sender.close();
        }
    }

    private static long openDescriptors() throws java.io.IOException {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"recv", "poll"})
    void aWaitOnAVirtualThreadHonoursItsTimeout(String kind) throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL)) {
            pull.bind("inproc://vt-timeout-" + kind);
            boolean[] timedOut = {false};
            long[] tookMs = {0};
            Thread t = Thread.ofVirtual().start(() -> {
                long start = System.nanoTime();
                timedOut[0] = waitForFrame(kind, pull, Duration.ofMillis(100));
                tookMs[0] = (System.nanoTime() - start) / 1_000_000;
            });
            t.join(Zmq.WAIT.toMillis());
            assertEquals(Thread.State.TERMINATED, t.getState());
            assertTrue(timedOut[0], "the " + kind + " did not time out");
            assertTrue(tookMs[0] >= 90, "the " + kind + " returned after " + tookMs[0] + " ms, before its 100 ms timeout");
        }
    }

    /** A poll timeout too long for a nanosecond deadline waits, parked, until its socket is ready, as null does. */
    @ParameterizedTest
    @ValueSource(strings = {"P365000D", "PT2562047788015215H30M7.999999999S"}) // 1000 years; ChronoUnit.FOREVER's duration
    void aPollWithATimeoutTooLongForADeadlineWaitsForItsFrame(String timeout) throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL); Socket push = context.socket(SocketType.PUSH)) {
            pull.bind("inproc://vt-long-timeout");
            push.connect("inproc://vt-long-timeout");
            CompletableFuture<Boolean> waited = waitOnAVirtualThread(() -> waitForFrame("poll", pull, Duration.parse(timeout)));
            awaitParked(pull, 1, List.of(waited));
            push.send("late");
            assertFalse(waited.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS), "the poll timed out");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"recv", "poll"})
    void contextCloseWakesAVirtualThreadParkedInAWait(String kind) throws Exception {
        Context context = new Context();
        Socket pull = context.socket(SocketType.PULL);
        pull.bind("inproc://vt-term-" + kind);
        CompletableFuture<Boolean> waited = waitOnAVirtualThread(() -> waitForFrame(kind, pull, null));
        awaitParked(pull, 1, List.of(waited));
        context.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> waited.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
        ContextTerminatedException terminated = assertInstanceOf(ContextTerminatedException.class, e.getCause());
        assertTrue(terminated.getMessage().contains("the context's close closed this socket"), terminated.getMessage());
    }

    /** A shutdown (the sockets stay open) ends a parked wait as it ends a blocked libzmq call: ETERM, for that call. */
    @ParameterizedTest
    @ValueSource(strings = {"recv", "poll"})
    void contextShutdownEndsAVirtualThreadsParkedWait(String kind) throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL)) {
            pull.bind("inproc://vt-shutdown-" + kind);
            CompletableFuture<Boolean> waited = waitOnAVirtualThread(() -> waitForFrame(kind, pull, null));
            awaitParked(pull, 1, List.of(waited));
            context.shutdown();
            ExecutionException e = assertThrows(ExecutionException.class, () -> waited.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            ContextTerminatedException terminated = assertInstanceOf(ContextTerminatedException.class, e.getCause());
            String call = kind.equals("recv") ? "Receiving" : "Polling";
            assertTrue(terminated.getMessage().startsWith(call), terminated.getMessage());
        }
    }

    /**
     * A close from another thread ends a virtual thread's parked wait at once (it would otherwise wait as long as
     * nothing arrives) and closes the socket: its port can be bound again.
     */
    @ParameterizedTest
    @ValueSource(strings = {"recv", "send", "poll"})
    void aCloseFromAnotherThreadEndsAVirtualThreadsParkedWait(String kind) throws Exception {
        try (Context context = new Context()) {
            // With no peer, a PUSH send has nowhere to go and waits; a PULL receive or poll waits for a frame.
            Socket socket = context.socket(kind.equals("send") ? SocketType.PUSH : SocketType.PULL);
            socket.bind("tcp://127.0.0.1:*");
            String endpoint = socket.lastEndpoint();
            CompletableFuture<Boolean> waited = waitOnAVirtualThread(
                    () -> kind.equals("send") ? socket.send("never sent") : waitForFrame(kind, socket, null));
            awaitParked(socket, 1, List.of(waited));
            socket.close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> waited.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            IllegalStateException closed = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(closed.getMessage().contains("the socket was closed during the wait"), closed.getMessage());
            assertTrue(socket.isClosed());
            try (Socket again = context.socket(SocketType.PULL)) {
                // libzmq's I/O thread closes the listener shortly after zmq_close returns: bind again until it has.
                long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
                while (true) {
                    try {
                        again.bind(endpoint);
                        break;
                    } catch (ZmqException inUse) {
                        if (inUse.errno() != EADDRINUSE) {
                            throw inUse;
                        }
                        assertTrue(System.nanoTime() < deadline, "the closed socket's port stayed bound: " + inUse.getMessage());
                        Thread.sleep(1); // polling an observable state, bounded by the deadline
                    }
                }
            }
        }
    }

    @Test
    void closingAPollerEndsAVirtualThreadsParkedPollOnIt() throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL)) {
            pull.bind("inproc://vt-poller-closed");
            Poller poller = new Poller();
            poller.add(pull, Poller.READABLE);
            CompletableFuture<Boolean> polled = waitOnAVirtualThread(() -> poller.poll(null) > 0);
            awaitParked(pull, 1, List.of(polled));
            poller.close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> polled.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            IllegalStateException closed = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(closed.getMessage().contains("the poller was closed during the poll"), closed.getMessage());
            assertTrue(poller.memory.freed, "the poll ended without freeing the closed poller's memory");
            assertNull(pull.recvString(RecvFlags.DONT_WAIT)); // the socket stays open, and free to use
        }
    }

    @Test
    void aCloseEndsEveryVirtualThreadParkedOnAThreadSafeSocket() throws Exception {
        try (Context context = new Context(); Socket server = context.socket(SocketType.SERVER)) {
            server.bind("inproc://vt-close-shared");
            List<CompletableFuture<String>> receives = SharedReceives.waiting(server, 2, Thread.ofVirtual());
            awaitParked(server, 2, receives);
            server.close();
            for (CompletableFuture<String> receive : receives) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> receive.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
                assertInstanceOf(IllegalStateException.class, e.getCause());
            }
            assertTrue(server.isClosed());
        }
    }

    private static CompletableFuture<Boolean> waitOnAVirtualThread(BooleanSupplier wait) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.complete(wait.getAsBoolean());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    /** Returns once n virtual threads are parked in a call on socket (bounded; fails if a call ends first). */
    private static void awaitParked(Socket socket, int n, List<? extends CompletableFuture<?>> calls) throws InterruptedException {
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (socket.core.parkedWaiters() < n) {
            boolean ended = calls.stream().anyMatch(CompletableFuture::isDone);
            assertTrue(System.nanoTime() < deadline && !ended, "the calls did not park (one ended: " + ended + ")");
            Thread.sleep(1); // polling an observable state, bounded by the deadline
        }
    }

    @Test
    void waitsParkedOnTheReactorGoOnWhenItStops() throws Exception {
        // In a child JVM: the probe stops that process's reactor. Its two waits then block in libzmq, each pinning a
        // carrier: room for both, and for the threads that follow, whatever the machine's core count.
        ChildJvm.Outcome outcome = ChildJvm.run(ReactorFailureProbe.class, "-Djdk.virtualThreadScheduler.parallelism=4");
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("waits survived the reactor's failure"), outcome.out());
    }

    @Test
    void waitsGoOnInLibzmqWhenTheReactorCannotStart() throws Exception {
        ChildJvm.Outcome outcome = ChildJvm.run(ReactorFailureProbe.class, "-Djdk.virtualThreadScheduler.parallelism=4",
                "-Dprobe.failedStart=true");
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("waits survived the reactor's failed start"), outcome.out());
        assertTrue(outcome.out().contains("epoll_create1 failed with errno 24"), outcome.out()); // EMFILE, logged
    }

    /** Waits for a frame on socket by a blocking recv (RCVTIMEO = timeout) or a Poller; true when the timeout passed. */
    private static boolean waitForFrame(String kind, Socket socket, Duration timeout) {
        if (kind.equals("recv")) {
            if (timeout != null) {
                socket.setOption(SocketOption.RCVTIMEO, timeout);
            }
            return socket.recvBytes() == null;
        }
        try (Poller poller = new Poller()) {
            poller.add(socket, Poller.READABLE);
            return poller.poll(timeout) == 0;
        }
    }
}
