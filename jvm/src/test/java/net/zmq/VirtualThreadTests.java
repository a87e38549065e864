package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import net.zmq.support.ChildJvm;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Blocking calls on virtual threads park instead of pinning their carrier. */
class VirtualThreadTests {
    private static final int THREADS = 10_000;

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

    @ParameterizedTest
    @ValueSource(strings = {"recv", "poll"})
    void contextCloseWakesAVirtualThreadParkedInAWait(String kind) throws Exception {
        Context context = new Context();
        Socket pull = context.socket(SocketType.PULL);
        pull.bind("inproc://vt-term-" + kind);
        Throwable[] thrown = {null};
        CountDownLatch started = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> {
            started.countDown();
            try {
                waitForFrame(kind, pull, null);
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        context.close();
        t.join(Zmq.WAIT.toMillis());
        assertEquals(Thread.State.TERMINATED, t.getState());
        assertTrue(thrown[0] instanceof ContextTerminatedException || thrown[0] instanceof IllegalStateException, String.valueOf(thrown[0]));
    }

    @Test
    void waitsParkedOnTheReactorGoOnWhenItStops() throws Exception {
        // In a child JVM: the probe stops that process's reactor. Its two waits then block in libzmq, each pinning a
        // carrier: room for both, and for the threads that follow, whatever the machine's core count.
        ChildJvm.Outcome outcome = ChildJvm.run(ReactorFailureProbe.class, "-Djdk.virtualThreadScheduler.parallelism=4");
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("waits survived the reactor's failure"), outcome.out());
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
