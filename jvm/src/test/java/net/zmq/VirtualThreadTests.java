package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;

/** Blocking calls on virtual threads park instead of pinning their carrier. */
class VirtualThreadTests {
    private static final int THREADS = 10_000;

    @Test
    void tenThousandVirtualThreadsBlockedInRecvAllGetTheirAnswer() throws Exception {
        int parallelism = Runtime.getRuntime().availableProcessors(); // the default carrier pool size
        Set<String> carriers = ConcurrentHashMap.newKeySet();
        AtomicInteger answered = new AtomicInteger();
        try (Context context = new Context(1, THREADS + 100)) {
            context.setDefaultLinger(java.time.Duration.ZERO);
            // One socket per receiving thread; one ROUTER answers them all (each socket has a descriptor, and the
            // process may hold only so many), addressing each by the routing id it gave the connection.
            Socket sender = context.socket(SocketType.ROUTER);
            Socket[] receivers = new Socket[THREADS];
            for (int i = 0; i < THREADS; i++) {
                receivers[i] = context.socket(SocketType.DEALER);
                receivers[i].bind("inproc://vt-" + i);
                sender.setOption(SocketOption.CONNECT_ROUTING_ID, ("r" + i).getBytes());
                sender.connect("inproc://vt-" + i);
            }
            sender.setOption(SocketOption.ROUTER_MANDATORY, true);
            CountDownLatch waiting = new CountDownLatch(THREADS);
            CountDownLatch done = new CountDownLatch(THREADS);
            for (int i = 0; i < THREADS; i++) {
                Socket receiver = receivers[i];
                int expected = i;
                Thread.ofVirtual().start(() -> {
                    waiting.countDown();
                    String answer = receiver.recvString(); // blocks: no message yet
                    String carrier = Thread.currentThread().toString();
                    carriers.add(carrier.substring(carrier.indexOf('@') + 1));
                    if (("answer " + expected).equals(answer)) {
                        answered.incrementAndGet();
                    }
                    done.countDown();
                });
            }
            // If the receives pinned their carriers, only `parallelism` threads would ever get to count down.
            assertTrue(waiting.await(60, TimeUnit.SECONDS), "only " + (THREADS - waiting.getCount()) + " virtual threads ran");
            for (int i = 0; i < THREADS; i++) {
                sender.sendMore(("r" + i).getBytes());
                sender.send("answer " + i);
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), (done.getCount()) + " answers never arrived");
            assertEquals(THREADS, answered.get());
            assertTrue(carriers.size() <= parallelism, "carriers used: " + carriers);
            for (Socket receiver : receivers) {
                receiver.close();
            }
            sender.close();
        }
        // Closing hands 10,000 sockets to libzmq's reaper; their descriptors go as it gets through them. Wait (bounded)
        // until they are gone: it shows nothing leaked, and the next tests start with the descriptors they need.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long open;
        while ((open = openDescriptors()) > THREADS / 2 && System.nanoTime() < deadline) {
            Thread.sleep(50); // polling an observable state, bounded by the deadline
        }
        assertTrue(open <= THREADS / 2, open + " descriptors still open a minute after closing the sockets");
    }

    private static long openDescriptors() throws java.io.IOException {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void virtualThreadRecvHonoursTheTimeout() throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL)) {
            pull.bind("inproc://vt-timeout");
            pull.setOption(SocketOption.RCVTIMEO, java.time.Duration.ofMillis(100));
            String[] result = {"unset"};
            Thread t = Thread.ofVirtual().start(() -> result[0] = pull.recvString());
            t.join(Zmq.WAIT.toMillis());
            assertEquals(null, result[0]);
        }
    }

    @Test
    void contextCloseWakesAParkedVirtualThread() throws Exception {
        Context context = new Context();
        Socket pull = context.socket(SocketType.PULL);
        pull.bind("inproc://vt-term");
        Throwable[] thrown = {null};
        CountDownLatch started = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> {
            started.countDown();
            try {
                pull.recvBytes();
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
}
