package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SocketMonitor, Poller, Proxy and the steerable proxy. */
class MonitorProxyTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void monitorReportsListeningAcceptedAndDisconnected() {
        try (Socket server = Zmq.socket(context, SocketType.ROUTER)) {
            try (SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL)) {
                server.bind("tcp://127.0.0.1:*");
                SocketMonitorEvent listening = monitor.await(SocketEvent.LISTENING, Zmq.WAIT);
                assertNotNull(listening);
                assertEquals(server.lastEndpoint(), listening.endpoint());
                Socket client = Zmq.socket(context, SocketType.DEALER);
                client.connect(server.lastEndpoint());
                assertNotNull(monitor.await(SocketEvent.ACCEPTED, Zmq.WAIT));
                assertNotNull(monitor.await(SocketEvent.HANDSHAKE_SUCCEEDED, Zmq.WAIT));
                client.close();
                assertNotNull(monitor.await(SocketEvent.DISCONNECTED, Zmq.WAIT));
            }
        }
    }

    /**
     * A monitor's wait longer than RCVTIMEO can say (int milliseconds, about 24 days), or too long for a nanosecond
     * deadline, waits for its event as a shorter one does.
     */
    @ParameterizedTest
    @ValueSource(strings = {"P30D", "PT2562047788015215H30M7.999999999S"}) // the second: ChronoUnit.FOREVER's duration
    void aMonitorWaitsForItsEventHoweverLongItsTimeout(String timeout) {
        Duration wait = Duration.parse(timeout);
        try (Socket server = Zmq.socket(context, SocketType.ROUTER); SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL)) {
            server.bind("tcp://127.0.0.1:*");
            SocketMonitorEvent listening = assertTimeoutPreemptively(Zmq.WAIT, () -> monitor.await(SocketEvent.LISTENING, wait));
            assertEquals(server.lastEndpoint(), listening.endpoint());
            try (Socket client = Zmq.socket(context, SocketType.DEALER)) {
                client.connect(server.lastEndpoint());
                SocketMonitorEvent next = assertTimeoutPreemptively(Zmq.WAIT, () -> monitor.receive(wait));
                assertNotNull(next);
            }
        }
    }

    @Test
    void aMonitorStaysOpenWhileAnotherThreadIsInACallOnItsSocketAndClosesAfter() throws Exception {
        try (Socket server = Zmq.socket(context, SocketType.PULL)) {
            server.bind("tcp://127.0.0.1:*");
            String endpoint = server.lastEndpoint();
            SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL);
            Thread receiver = Thread.ofPlatform().start(server::recvBytes);
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (!server.core.inCall() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(server.core.inCall(), "the receiver never entered its call");
            IllegalStateException e = assertThrows(IllegalStateException.class, monitor::close);
            assertTrue(e.getMessage().contains("cannot stop monitoring"), e.getMessage());
            // Still monitoring, and still read: a peer's connection is reported.
            try (Socket client = Zmq.socket(context, SocketType.PUSH)) {
                client.connect(endpoint);
                assertNotNull(monitor.await(SocketEvent.ACCEPTED, Zmq.WAIT));
                client.send("release");
            }
            receiver.join();
            monitor.close();
            monitor.close(); // idempotent
        }
    }

    /**
     * libzmq sends a socket's events with a blocking send, on its I/O and reaper threads, also after zmq_close: a
     * monitor closed after its socket must not leave those sends without a reader. The I/O thread still carries
     * messages afterwards.
     */
    @Test
    void aMonitorClosedAfterItsSocketLeavesLibzmqsThreadsRunning() {
        Socket server = Zmq.socket(context, SocketType.ROUTER);
        SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL);
        server.bind("tcp://127.0.0.1:*");
        try (Socket client = Zmq.socket(context, SocketType.DEALER)) {
            client.connect(server.lastEndpoint());
            assertNotNull(monitor.await(SocketEvent.HANDSHAKE_SUCCEEDED, Zmq.WAIT));
            server.close(); // the wrong order: libzmq reports the listener's and the connection's end after this
            monitor.close();
            assertThrows(IllegalStateException.class, () -> monitor.receive(Duration.ZERO));
        }
        assertCarriesMessagesOverTcp();
    }

    /**
     * A close from another thread while a SocketMonitor starts (inside libzmq's zmq_socket_monitor, under the socket's
     * claim) is made as that call ends, and stops the monitoring it just began: the monitor's close then returns.
     * Before, the monitor recorded its event socket after the claim, so the close stopped nothing and the monitor's
     * close waited for that stop for good. The close meets the call in some of the rounds, not all.
     */
    @Test
    void aSocketClosedWhileItsMonitorStartsLetsTheMonitorClose() throws Exception {
        for (int round = 0; round < 100; round++) {
            Socket socket = Zmq.socket(context, SocketType.DEALER);
            AtomicBoolean started = new AtomicBoolean();
            AtomicReference<Throwable> closeFailure = new AtomicReference<>();
            Thread closer = Thread.ofPlatform().start(() -> {
                while (!socket.core.inCall() && !started.get()) {
                    Thread.onSpinWait();
                }
                try {
                    socket.close();
                } catch (Throwable t) {
                    closeFailure.set(t);
                }
            });
            SocketMonitor monitor;
            try {
                monitor = new SocketMonitor(socket, SocketEvent.ALL);
            } catch (IllegalStateException closedFirst) {
                closer.join();
                assertNull(closeFailure.get());
                continue;
            } finally {
                started.set(true);
            }
            closer.join();
            assertNull(closeFailure.get(), () -> "round: the close threw " + closeFailure.get());
            assertTimeoutPreemptively(Zmq.WAIT, monitor::close, "round " + round + ": the monitor's close never returned");
        }
        assertCarriesMessagesOverTcp();
    }

    /**
     * A monitor dropped without close keeps its event socket open while its socket is open (closing it under libzmq
     * would stop libzmq's I/O thread at the next event), and lets it go once that socket is closed.
     */
    @Test
    void aMonitorDroppedUnclosedKeepsItsEventSocketUntilItsSocketCloses() throws Exception {
        try (Socket server = Zmq.socket(context, SocketType.ROUTER)) {
            WeakReference<?>[] refs = droppedMonitorOf(server); // the monitor, then its event socket
            assertTrue(Zmq.collected(refs[0]), "the monitor still reachable after " + Zmq.WAIT);
            assertNotNull(refs[1].get(), "the event socket was collected while its socket is monitored");
            server.bind("tcp://127.0.0.1:*");
            try (Socket client = Zmq.socket(context, SocketType.DEALER)) {
                client.connect(server.lastEndpoint()); // events for nobody to read
                assertTrue(client.send("hello"));
                assertEquals(2, server.recvMultipart().size());
            }
            assertCarriesMessagesOverTcp();
            server.close();
            assertTrue(Zmq.collected(refs[1]), "the event socket still reachable after " + Zmq.WAIT);
        }
        assertCarriesMessagesOverTcp();
    }

    private static WeakReference<?>[] droppedMonitorOf(Socket socket) throws ReflectiveOperationException {
        SocketMonitor monitor = new SocketMonitor(socket, SocketEvent.ALL);
        Field events = SocketMonitor.class.getDeclaredField("events");
        events.setAccessible(true);
        return new WeakReference<?>[] {new WeakReference<>(monitor), new WeakReference<>(events.get(monitor))};
    }

    /** A message goes over tcp between two new sockets of this context, whose I/O thread carries it. */
    private void assertCarriesMessagesOverTcp() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR)) {
            Zmq.connect(a, b, "tcp");
            assertTrue(b.send("ping"));
            assertEquals("ping", a.recvString(), "libzmq's I/O thread carried no message");
        }
    }

    /** After the context's shutdown a monitor still closes (its socket's ETERM means the monitoring is over). */
    @Test
    void aMonitorClosesAfterItsContextWasShutDown() {
        try (Socket server = Zmq.socket(context, SocketType.PUSH)) {
            SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL);
            server.bind("tcp://127.0.0.1:*");
            assertNotNull(monitor.await(SocketEvent.LISTENING, Zmq.WAIT));
            context.shutdown();
            assertThrows(ContextTerminatedException.class, () -> server.send("to nobody")); // the socket sees ETERM
            monitor.close();
            assertThrows(IllegalStateException.class, () -> monitor.receive(Duration.ZERO));
        }
    }

    /** A monitor closed after a raw Socket.monitor call replaced its monitoring leaves that new monitoring running. */
    @Test
    void aMonitorClosedAfterARawMonitorReplacedItLeavesTheNewOneRunning() {
        try (Socket server = Zmq.socket(context, SocketType.PUSH); Socket own = Zmq.socket(context, SocketType.PAIR)) {
            SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL);
            String endpoint = "inproc://own-monitor-" + System.nanoTime();
            own.connect(endpoint); // before libzmq binds it, as SocketMonitor does
            server.monitor(endpoint, SocketEvent.ALL);
            monitor.close();
            server.bind("tcp://127.0.0.1:*");
            byte[] header = own.recvBytes();
            assertNotNull(header);
            int event = ByteBuffer.wrap(header).order(ByteOrder.nativeOrder()).getShort(0) & 0xFFFF;
            assertEquals(SocketEvent.LISTENING.bit(), event, "the first event of the raw monitor");
            own.recvBytes(); // the event's endpoint
            server.monitor(null, 0);
        }
    }

    @Test
    void aMonitorMaskOutsideTheEventsIsRefused() {
        try (Socket server = Zmq.socket(context, SocketType.PUSH)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SocketMonitor(server, -1));
            assertTrue(e.getMessage().contains("outside SocketEvent.ALL"), e.getMessage());
            try (SocketMonitor monitor = new SocketMonitor(server, SocketEvent.ALL)) { // nothing was left half set up
                server.bind("tcp://127.0.0.1:*");
                assertNotNull(monitor.await(SocketEvent.LISTENING, Zmq.WAIT));
            }
        }
    }

    @Test
    void pollerReportsTheReadySocket() {
        try (Socket a = Zmq.socket(context, SocketType.PAIR); Socket b = Zmq.socket(context, SocketType.PAIR);
             Socket idle = Zmq.socket(context, SocketType.PULL); Poller poller = new Poller()) {
            Zmq.connect(a, b, "inproc");
            idle.bind("inproc://idle");
            int ib = poller.add(b, Poller.READABLE);
            int ii = poller.add(idle, Poller.READABLE);
            assertEquals(0, poller.poll(Duration.ZERO));
            a.send("wake");
            assertEquals(1, poller.poll(Zmq.WAIT));
            assertTrue(poller.isReadable(ib));
            assertTrue(!poller.isReadable(ii));
            assertEquals("wake", b.recvString());
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> poller.add(b, Poller.WRITABLE));
            assertTrue(twice.getMessage().contains("already in the poller at index " + ib), twice.getMessage());
            assertEquals(0, poller.poll(Duration.ZERO)); // still polls
        }
    }

    /**
     * A poller without sockets: zmq_poll would sleep instead, and without a timeout wrap its microsecond count (about 71
     * minutes). It waits out a timeout, refuses to wait forever, and a close ends its wait.
     */
    @Test
    void aPollerWithNoSocketsWaitsOutItsTimeoutAndNeverForever() throws Exception {
        Poller poller = new Poller();
        assertEquals(0, poller.poll(Duration.ZERO));
        long start = System.nanoTime();
        assertEquals(0, poller.poll(Duration.ofMillis(50)));
        assertTrue(System.nanoTime() - start >= 50_000_000L, "returned before its timeout");
        for (Duration forever : new Duration[] {null, Duration.ofMillis(-1)}) {
            IllegalStateException never = assertTimeoutPreemptively(Zmq.WAIT,
                    () -> assertThrows(IllegalStateException.class, () -> poller.poll(forever)));
            assertTrue(never.getMessage().contains("has no sockets, so a poll without a timeout would never return"),
                    never.getMessage());
        }
        CompletableFuture<Integer> poll = new CompletableFuture<>();
        Thread polling = Thread.ofPlatform().start(() -> {
            try {
                poll.complete(poller.poll(Duration.ofMinutes(10)));
            } catch (Throwable t) {
                poll.completeExceptionally(t);
            }
        });
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (LockSupport.getBlocker(polling) != poller && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(poller, LockSupport.getBlocker(polling), "the poll did not start waiting");
        poller.close();
        ExecutionException closed = assertThrows(ExecutionException.class, () -> poll.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(closed.getCause().getMessage().contains("the poller was closed during the poll"), closed.getCause().toString());
        assertTrue(poller.memory.freed, "the poll ended without freeing the closed poller's memory");
    }

    @Test
    void proxyForwardsUntilTheContextCloses() throws Exception {
        Context proxyContext = new Context();
        Socket frontend = proxyContext.socket(SocketType.ROUTER);
        Socket backend = proxyContext.socket(SocketType.DEALER);
        frontend.bind("tcp://127.0.0.1:*");
        backend.bind("tcp://127.0.0.1:*");
        // Read the endpoints before the proxy thread takes the sockets over (a call during the proxy would be refused).
        String front = frontend.lastEndpoint();
        String back = backend.lastEndpoint();
        Thread proxy = Thread.ofPlatform().start(() -> Proxy.run(frontend, backend, null));
        try (Socket client = Zmq.socket(context, SocketType.REQ); Socket worker = Zmq.socket(context, SocketType.REP)) {
            client.connect(front);
            worker.connect(back);
            client.send("through the proxy");
            assertEquals("through the proxy", worker.recvString());
            worker.send("back");
            assertEquals("back", client.recvString());
        }
        proxyContext.close();
        proxy.join(Zmq.WAIT.toMillis());
        assertEquals(Thread.State.TERMINATED, proxy.getState());
    }

    @Test
    void aProxyWithOneSocketAsFrontendAndBackendEchoes() throws Exception {
        Context proxyContext = new Context();
        Socket router = proxyContext.socket(SocketType.ROUTER);
        router.bind("tcp://127.0.0.1:*");
        String endpoint = router.lastEndpoint();
        Thread proxy = Thread.ofPlatform().start(() -> Proxy.run(router, router, null));
        try (Socket client = Zmq.socket(context, SocketType.DEALER)) {
            client.connect(endpoint);
            client.send("echo");
            assertEquals("echo", client.recvString());
        }
        proxyContext.close();
        proxy.join(Zmq.WAIT.toMillis());
        assertEquals(Thread.State.TERMINATED, proxy.getState());
    }

    @Test
    void steerableProxyPausesCountsAndTerminates() throws Exception {
        try (Socket frontend = context.socket(SocketType.PULL); Socket backend = context.socket(SocketType.PUSH);
             Socket producer = Zmq.socket(context, SocketType.PUSH); Socket consumer = Zmq.socket(context, SocketType.PULL);
             ProxyController controller = new ProxyController(context)) {
            wire(producer, frontend, backend, consumer, "inproc://steered");
            Thread proxy = Thread.ofPlatform().start(() -> Proxy.runSteerable(frontend, backend, null, controller));
            producer.send("first");
            assertEquals("first", consumer.recvString());
            controller.pause();
            ProxyStatistics paused = controller.statistics(); // answered in order: the pause is in force
            producer.send("held");
            consumer.setOption(SocketOption.RCVTIMEO, Zmq.SHORT);
            assertNull(consumer.recvString());
            controller.resume();
            consumer.setOption(SocketOption.RCVTIMEO, Zmq.WAIT);
            assertEquals("held", consumer.recvString());
            assertEquals(1, paused.frontendMessagesIn());
            ProxyStatistics stats = controller.statistics();
            assertEquals(2, stats.frontendMessagesIn());
            assertEquals(2, stats.backendMessagesOut());
            controller.terminate();
            proxy.join(Zmq.WAIT.toMillis());
            assertEquals(Thread.State.TERMINATED, proxy.getState());
            assertNull(controller.statistics(Zmq.SHORT), "statistics without a proxy running"); // gives up in time
        }
    }

    /**
     * A statistics call gets the reply to its own request, never one owed to an earlier call that gave up, even when
     * that reply arrives during the call: here both requests wait for a proxy, which answers the first, then forwards
     * the message queued for it, then answers the second.
     */
    @Test
    void statisticsNeverReturnsTheReplyOwedToACallThatGaveUp() throws Exception {
        try (Socket frontend = context.socket(SocketType.PULL); Socket backend = context.socket(SocketType.PUSH);
             Socket producer = Zmq.socket(context, SocketType.PUSH); Socket consumer = Zmq.socket(context, SocketType.PULL);
             ProxyController controller = new ProxyController(context)) {
            wire(producer, frontend, backend, consumer, "inproc://owed");
            assertNull(controller.statistics(Duration.ofMillis(10))); // no proxy yet: its reply is owed
            producer.send("queued before the proxy");
            CompletableFuture<ProxyStatistics> asked = CompletableFuture.supplyAsync(() -> controller.statistics(Zmq.WAIT),
                    r -> Thread.ofPlatform().start(r));
            Socket commander = controller.commander;
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (!commander.core.inCall() && System.nanoTime() < deadline) { // its request sent, waiting for the reply
                Thread.onSpinWait();
            }
            assertTrue(commander.core.inCall(), "the second statistics call did not start");
            Thread proxy = Thread.ofPlatform().start(() -> Proxy.runSteerable(frontend, backend, null, controller));
            assertEquals("queued before the proxy", consumer.recvString());
            ProxyStatistics stats = asked.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertEquals(1, stats.frontendMessagesIn(), "the reply owed to the call that gave up was returned: " + stats);
            assertEquals(1, controller.statistics(Zmq.WAIT).frontendMessagesIn()); // and nothing stale is left
            controller.terminate();
            proxy.join(Zmq.WAIT.toMillis());
            assertEquals(Thread.State.TERMINATED, proxy.getState());
        }
    }

    /** Connects producer to frontend and backend to consumer, over inproc endpoints named after name, for a proxy between. */
    private static void wire(Socket producer, Socket frontend, Socket backend, Socket consumer, String name) {
        frontend.bind(name + "-front");
        backend.bind(name + "-back");
        producer.connect(name + "-front");
        consumer.connect(name + "-back");
    }
}
