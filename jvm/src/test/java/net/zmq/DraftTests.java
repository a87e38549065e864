package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import net.zmq.support.ChildJvm;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Draft socket types on the bundled libzmq. */
class DraftTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void bundledLibzmqHasDraftsAndCurve() {
        assertTrue(Context.has("draft"));
        assertTrue(Context.has("curve"));
    }

    /**
     * A free callback that runs inside a thread-safe socket's receive (which releases a zero-copy frame as it ends) and
     * receives on a thread-safe socket itself: the two calls use separate native memory of the thread. In a child JVM,
     * as memory shared by the two would take the process down.
     */
    @Test
    void aFreeCallbackReceivingInsideAThreadSafeReceiveGetsMemoryOfItsOwn() throws Exception {
        ChildJvm.Outcome outcome = ChildJvm.run(FreeCallbackCallsProbe.class);
        assertEquals(0, outcome.exit(), outcome.out());
        assertTrue(outcome.out().contains("a free callback's calls kept apart"), outcome.out());
    }

    @Test
    void serverRepliesToClientByRoutingId() {
        try (Socket server = Zmq.socket(context, SocketType.SERVER); Socket client = Zmq.socket(context, SocketType.CLIENT);
             Message in = new Message()) {
            Zmq.connect(server, client, "tcp");
            client.send("hi");
            assertTrue(server.recv(in, RecvFlags.NONE));
            int peer = in.routingId();
            assertNotEquals(0, peer);
            try (Message reply = new Message("hello " + in.text())) {
                reply.setRoutingId(peer);
                assertTrue(server.send(reply, SendFlags.NONE));
            }
            assertEquals("hello hi", client.recvString());
        }
    }

    @Test
    void radioDishDeliversJoinedGroupsOnly() {
        try (Socket radio = Zmq.socket(context, SocketType.RADIO); Socket dish = Zmq.socket(context, SocketType.DISH);
             Message in = new Message()) {
            dish.join("news");
            Zmq.connect(radio, dish, "inproc");
            for (String group : new String[] {"sport", "news"}) {
                try (Message m = new Message(group + " item")) {
                    m.setGroup(group);
                    radio.send(m, SendFlags.NONE);
                }
            }
            assertTrue(dish.recv(in, RecvFlags.NONE));
            assertEquals("news", in.group());
            assertEquals("news item", in.text());
        }
    }

    @Test
    void scatterGatherAndChannel() {
        try (Socket scatter = Zmq.socket(context, SocketType.SCATTER); Socket gather = Zmq.socket(context, SocketType.GATHER);
             Socket c1 = Zmq.socket(context, SocketType.CHANNEL); Socket c2 = Zmq.socket(context, SocketType.CHANNEL)) {
            Zmq.connect(gather, scatter, "inproc");
            scatter.send("spread");
            assertEquals("spread", gather.recvString());
            Zmq.connect(c1, c2, "inproc");
            c2.send("via channel");
            assertEquals("via channel", c1.recvString());
        }
    }

    @Test
    void virtualThreadsWaitingOnThreadSafeSocketsDoNotPinTheirCarriers() throws Exception {
        // libzmq gives thread-safe sockets no ZMQ_FD: their waits park on the descriptor of a zmq_poller holding them.
        int threads = 200;
        int parallelism = Runtime.getRuntime().availableProcessors(); // the default carrier pool size
        Set<String> carriers = ConcurrentHashMap.newKeySet();
        try (Socket server = Zmq.socket(context, SocketType.SERVER)) {
            server.bind("inproc://thread-safe-waits");
            Socket[] clients = new Socket[threads];
            int[] peers = new int[threads];
            try (Message in = new Message()) {
                for (int i = 0; i < threads; i++) {
                    clients[i] = Zmq.socket(context, SocketType.CLIENT);
                    clients[i].connect("inproc://thread-safe-waits");
                    clients[i].send(Integer.toString(i)); // so that the server learns its routing id
                    assertTrue(server.recv(in, RecvFlags.NONE));
                    peers[Integer.parseInt(in.text())] = in.routingId();
                }
            }
            CountDownLatch waiting = new CountDownLatch(threads);
            List<CompletableFuture<String>> answers = new ArrayList<>();
            for (Socket client : clients) {
                CompletableFuture<String> answer = new CompletableFuture<>();
                answers.add(answer);
                Thread.ofVirtual().start(() -> {
                    waiting.countDown();
                    try {
                        String text = client.recvString(); // waits: nothing sent yet
                        String carrier = Thread.currentThread().toString();
                        carriers.add(carrier.substring(carrier.indexOf('@') + 1));
                        answer.complete(text);
                    } catch (Throwable t) {
                        answer.completeExceptionally(t);
                    }
                });
            }
            // A wait that pinned its carrier would leave only the default parallelism's threads able to get here.
            assertTrue(waiting.await(30, TimeUnit.SECONDS), "only " + (threads - waiting.getCount()) + " virtual threads ran");
            for (int i = 0; i < threads; i++) {
                try (Message reply = new Message("answer " + i)) {
                    reply.setRoutingId(peers[i]);
                    assertTrue(server.send(reply, SendFlags.NONE));
                }
            }
            for (int i = 0; i < threads; i++) {
                assertEquals("answer " + i, answers.get(i).get(30, TimeUnit.SECONDS));
            }
            assertTrue(carriers.size() <= parallelism, "carriers used: " + carriers);
            for (Socket client : clients) {
                client.close();
            }
        }
    }

    @Test
    void virtualThreadWaitsInPollOnThreadSafeSocket() throws Exception {
        try (Socket server = Zmq.socket(context, SocketType.SERVER); Socket client = Zmq.socket(context, SocketType.CLIENT);
             Poller poller = new Poller()) {
            Zmq.connect(server, client, "inproc");
            poller.add(server, Poller.READABLE);
            CompletableFuture<Boolean> readable = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    readable.complete(poller.poll(Duration.ofSeconds(10)) == 1 && poller.isReadable(0));
                } catch (Throwable t) {
                    readable.completeExceptionally(t);
                }
            });
            while (!server.core.inCall() && !readable.isDone()) {
                Thread.onSpinWait(); // until the poll has begun (or failed)
            }
            client.send("hi");
            assertTrue(readable.get(10, TimeUnit.SECONDS));
            assertEquals("hi", server.recvString());
        }
    }

    @Test
    void serverAnswersClientsFromFourThreadsAtOnce() throws Exception {
        // libzmq makes SERVER thread-safe: four threads receive and reply on one socket at the same time.
        int clients = 4;
        int requests = 500;
        try (Socket server = Zmq.socket(context, SocketType.SERVER)) {
            server.bind("inproc://shared-server");
            List<Thread> workers = new ArrayList<>();
            AtomicInteger answered = new AtomicInteger();
            CompletableFuture<Void> failed = new CompletableFuture<>();
            for (int w = 0; w < clients; w++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try (Message request = new Message()) {
                        while (true) {
                            assertTrue(server.recv(request, RecvFlags.NONE));
                            if (request.text().equals("stop")) {
                                break;
                            }
                            try (Message reply = new Message("re " + request.text())) {
                                reply.setRoutingId(request.routingId());
                                assertTrue(server.send(reply, SendFlags.NONE));
                            }
                            answered.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failed.completeExceptionally(t);
                    }
                }));
            }
            List<CompletableFuture<Integer>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int id = c;
                CompletableFuture<Integer> result = new CompletableFuture<>();
                results.add(result);
                Thread.ofPlatform().start(() -> {
                    try (Socket client = Zmq.socket(context, SocketType.CLIENT)) {
                        client.connect("inproc://shared-server");
                        int good = 0;
                        for (int r = 0; r < requests; r++) {
                            client.send(id + ":" + r);
                            if (("re " + id + ":" + r).equals(client.recvString())) {
                                good++;
                            }
                        }
                        result.complete(good);
                    } catch (Throwable t) {
                        result.completeExceptionally(t);
                    }
                });
            }
            for (CompletableFuture<Integer> result : results) {
                assertEquals(requests, result.get(60, TimeUnit.SECONDS));
            }
            try (Socket stopper = Zmq.socket(context, SocketType.CLIENT)) {
                stopper.connect("inproc://shared-server");
                for (int w = 0; w < clients; w++) {
                    stopper.send("stop"); // a worker that takes one ends, so each takes one
                }
                for (Thread worker : workers) {
                    worker.join(Zmq.WAIT.toMillis());
                    assertEquals(Thread.State.TERMINATED, worker.getState());
                }
            }
            assertTrue(!failed.isDone(), () -> "a server thread failed: " + failed.exceptionNow());
            assertEquals(clients * requests, answered.get());
        }
    }

    @Test
    void twoVirtualThreadsWaitingOnOneClientBothWake() throws Exception {
        try (Socket server = Zmq.socket(context, SocketType.SERVER); Socket client = Zmq.socket(context, SocketType.CLIENT);
             Message in = new Message()) {
            Zmq.connect(server, client, "inproc");
            client.send("hello");
            assertTrue(server.recv(in, RecvFlags.NONE));
            int peer = in.routingId();
            List<CompletableFuture<String>> got = SharedReceives.waiting(client, 2, Thread.ofVirtual());
            for (String text : new String[] {"a", "b"}) {
                try (Message reply = new Message(text)) {
                    reply.setRoutingId(peer);
                    assertTrue(server.send(reply, SendFlags.NONE));
                }
            }
            Set<String> texts = ConcurrentHashMap.newKeySet();
            for (CompletableFuture<String> answer : got) {
                texts.add(answer.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            }
            assertEquals(Set.of("a", "b"), texts);
        }
    }
}
