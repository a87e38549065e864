package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Close, context termination, the Cleaner, concurrent-use detection and thread-safe sockets' shared calls. */
class LifetimeTests {
    @Test
    void contextCloseUnblocksARecvWithContextTerminated() throws Exception {
        Context context = new Context();
        Socket pull = context.socket(SocketType.PULL);
        pull.bind("inproc://blocked");
        CountDownLatch entered = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            entered.countDown();
            try {
                pull.recvBytes();
                return null;
            } catch (Throwable t) {
                return t;
            }
        }, r -> Thread.ofPlatform().start(r));
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        // The receiver may not be inside libzmq yet: closing the context makes the call fail either way.
        long start = System.nanoTime();
        context.close();
        Throwable thrown = outcome.get(10, TimeUnit.SECONDS);
        assertTrue(thrown instanceof ContextTerminatedException
                || thrown instanceof IllegalStateException && thrown.getMessage().contains("closed"), String.valueOf(thrown));
        assertTrue(System.nanoTime() - start < Context.TERMINATION_WAIT.toNanos());
        assertTrue(pull.isClosed());
    }

    @Test
    void contextCloseUnblocksAPollWithContextTerminated() throws Exception {
        Context context = new Context();
        Socket pull = context.socket(SocketType.PULL);
        pull.bind("inproc://polled");
        Poller poller = new Poller();
        poller.add(pull, Poller.READABLE);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                poller.poll(null);
                return null;
            } catch (Throwable t) {
                return t;
            }
        }, r -> Thread.ofPlatform().start(r));
        // Once the poller holds the socket the poll is about to wait in libzmq (or already does).
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (!pull.core.inCall() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(pull.core.inCall(), "the poll did not start");
        context.close();
        Throwable thrown = outcome.get(10, TimeUnit.SECONDS);
        assertTrue(thrown instanceof ContextTerminatedException, String.valueOf(thrown));
        assertTrue(thrown.getMessage().contains("Polling 1 sockets"), thrown.getMessage());
        poller.close();
        assertTrue(pull.isClosed());
    }

    /**
     * A poller closed by another thread during a poll blocked in libzmq keeps its native memory until that poll returns
     * (zmq_poll is reading it), refuses that thread's calls meanwhile, and frees it as the poll returns.
     */
    @Test
    void aPollerClosedDuringAPollFreesItsMemoryAsThePollReturns() throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL);
             Socket push = context.socket(SocketType.PUSH); Socket other = context.socket(SocketType.PULL)) {
            pull.bind("inproc://poller-closed");
            push.connect("inproc://poller-closed");
            Poller poller = new Poller();
            poller.add(pull, Poller.READABLE);
            CompletableFuture<Integer> poll = CompletableFuture.supplyAsync(() -> poller.poll(null), r -> Thread.ofPlatform().start(r));
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (!pull.core.inCall() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(pull.core.inCall(), "the poll did not start");
            IllegalStateException inUse = assertThrows(IllegalStateException.class, () -> poller.add(other, Poller.READABLE));
            assertTrue(inUse.getMessage().contains("in use by another thread"), inUse.getMessage());
            poller.close();
            assertTrue(!poller.memory.freed, "freed under a poll in flight");
            IllegalStateException closed = assertThrows(IllegalStateException.class, () -> poller.add(other, Poller.READABLE));
            assertTrue(closed.getMessage().contains("the poller is closed"), closed.getMessage());
            push.send("wake");
            assertEquals(1, poll.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            assertTrue(poller.memory.freed, "not freed as the poll returned");
            assertThrows(IllegalStateException.class, () -> poller.isReadable(0));
            assertEquals("wake", pull.recvString(RecvFlags.DONT_WAIT)); // the socket stays open
        }
    }

    @Test
    void contextCloseIsBoundedByLingerWithUnsentMessages() {
        Context context = new Context();
        Socket push = context.socket(SocketType.PUSH);
        push.connect("tcp://127.0.0.1:1"); // nobody listens: the message can never leave
        push.send("stuck", SendFlags.DONT_WAIT);
        long start = System.nanoTime();
        context.close();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < 5000, "close took " + ms + " ms; the default linger is 1 s");
        assertTrue(push.isClosed());
        assertThrows(IllegalStateException.class, () -> push.send("late"));
        assertThrows(IllegalStateException.class, () -> context.socket(SocketType.PUSH));
    }

    /** Two threads closing one context: neither returns before libzmq terminated it (here: held by a linger). */
    @Test
    void aCloseDuringAnotherThreadsCloseWaitsForTheSameTermination() throws Exception {
        Context context = new Context();
        Socket push = context.socket(SocketType.PUSH);
        push.setOption(SocketOption.LINGER, Duration.ofSeconds(2));
        push.connect("tcp://127.0.0.1:1"); // nobody listens: the message can never leave, so it lingers
        push.send("stuck", SendFlags.DONT_WAIT);
        long start = System.nanoTime();
        CompletableFuture<Void> first = CompletableFuture.runAsync(context::close, r -> Thread.ofPlatform().start(r));
        long deadline = start + Zmq.WAIT.toNanos();
        while (!context.isClosed() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(context.isClosed(), "the first close did not start");
        context.close();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms >= 1500, "the second close returned after " + ms + " ms, before the 2 s linger let libzmq terminate");
        assertTrue(ms < 9000, "the second close took " + ms + " ms");
        first.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A close waits for the termination at most {@link Context#TERMINATION_WAIT} from the first close: one made after
     * that returns at once. (The context here never terminates: its socket lingers forever with a message for nobody.)
     */
    @Test
    void aCloseAfterTheTerminationWaitRanOutReturnsAtOnce() {
        Context context = new Context();
        Socket push = context.socket(SocketType.PUSH);
        push.setOption(SocketOption.LINGER, null);
        push.connect("tcp://127.0.0.1:1"); // nobody listens: the message can never leave
        push.send("stuck", SendFlags.DONT_WAIT);
        long start = System.nanoTime();
        context.close();
        long first = (System.nanoTime() - start) / 1_000_000;
        assertTrue(first >= Context.TERMINATION_WAIT.toMillis() - 50, "the first close returned after " + first + " ms");
        start = System.nanoTime();
        context.close();
        long again = (System.nanoTime() - start) / 1_000_000;
        assertTrue(again < 1000, "a close after the wait ran out waited " + again + " ms more");
    }

    @Test
    void aContextClosedWhileSocketsAreBeingCreatedEndsWithoutWaitingAndShutdownAfterCloseDoesNothing() throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            Context context = new Context();
            CountDownLatch creating = new CountDownLatch(1);
            Thread creator = Thread.ofPlatform().start(() -> {
                creating.countDown();
                try {
                    for (int i = 0; i < 500; i++) {
                        context.socket(SocketType.PUSH); // left open: the close must close it, or refuse it
                    }
                } catch (IllegalStateException | ContextTerminatedException expected) {
                    // refused once the close began
                }
            });
            creating.await();
            long start = System.nanoTime();
            context.close();
            long ms = (System.nanoTime() - start) / 1_000_000;
            creator.join();
            // A socket made after the close looked at the sockets would hold zmq_ctx_term for the whole wait.
            assertTrue(ms < Context.TERMINATION_WAIT.toMillis() / 2, "close took " + ms + " ms");
            context.shutdown();
        }
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseSaysSo() {
        try (Context context = new Context()) {
            Socket s = context.socket(SocketType.PAIR);
            s.close();
            s.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.bind("inproc://x"));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }

    @Test
    void secondThreadDuringACallGetsIllegalStateNamingTheFix() throws Exception {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL)) {
            pull.bind("inproc://shared");
            pull.setOption(SocketOption.RCVTIMEO, Zmq.WAIT);
            Thread receiver = Thread.ofPlatform().start(pull::recvBytes);
            // Wait (bounded) until the receiver is inside its call, then call from this thread.
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (!pull.core.inCall() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(pull.core.inCall(), "the receiver never entered its call");
            IllegalStateException seen = assertThrows(IllegalStateException.class, () -> pull.recvBytes(RecvFlags.DONT_WAIT));
            assertTrue(seen.getMessage().contains("one thread at a time"), seen.getMessage());
            assertThrows(IllegalStateException.class, () -> pull.setOption(SocketOption.LINGER, java.time.Duration.ZERO));
            try (Socket push = context.socket(SocketType.PUSH)) {
                push.connect("inproc://shared");
                push.send("release");
            }
            receiver.join(Zmq.WAIT.toMillis());
            assertEquals(Thread.State.TERMINATED, receiver.getState());
        }
    }

    /**
     * The draft types libzmq makes thread-safe take a second thread's call while a call is in flight (each call uses
     * its thread's native scratch memory, never the socket's). RADIO is left out: none of its calls blocks, so no call
     * of a second thread can overlap one here.
     */
    @ParameterizedTest
    @EnumSource(value = SocketType.class, names = {"SERVER", "CLIENT", "DISH", "GATHER", "SCATTER", "PEER", "CHANNEL"})
    void threadSafeDraftSocketsTakeASecondThreadsCallDuringACall(SocketType type) throws Exception {
        Context context = new Context();
        Thread caller = null;
        try {
            Socket socket = context.socket(type);
            // With no peer a SCATTER send blocks, as does a receive on the others; the context's close ends either.
            Runnable call = type == SocketType.SCATTER ? () -> socket.send("x") : socket::recvBytes;
            caller = Thread.ofPlatform().start(() -> {
                try {
                    call.run();
                } catch (ContextTerminatedException e) {
                    // the end this test gives the call
                }
            });
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (!socket.core.inCall() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(socket.core.inCall(), "the " + type + " call never started");
            socket.setOption(SocketOption.LINGER, Duration.ofMillis(5));
            assertEquals(Duration.ofMillis(5), socket.getOption(SocketOption.LINGER));
            assertTrue(socket.core.inCall(), "the " + type + " call ended early");
        } finally {
            context.close();
            if (caller != null) {
                caller.join(Zmq.WAIT.toMillis());
                assertEquals(Thread.State.TERMINATED, caller.getState());
            }
        }
    }

    @Test
    void closingAThreadSafeSocketDuringCallsClosesItAsTheLastCallEnds() throws Exception {
        try (Context context = new Context(); Socket server = Zmq.socket(context, SocketType.SERVER);
             Socket client = Zmq.socket(context, SocketType.CLIENT)) {
            Zmq.connect(server, client, "inproc");
            List<CompletableFuture<String>> calls = SharedReceives.waiting(server, 2, Thread.ofPlatform());
            server.close(); // returns at once; the socket closes when the second receive returns
            assertTrue(!server.isClosed(), "closed under two calls in flight");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> server.getOption(SocketOption.LINGER));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            client.send("one");
            client.send("two");
            for (CompletableFuture<String> call : calls) {
                assertTrue(Set.of("one", "two").contains(call.get(Zmq.WAIT.toMillis(), TimeUnit.MILLISECONDS)));
            }
            assertTrue(server.isClosed(), "still open after its last call");
        }
    }

    @Test
    void cleanerClosesAnUnreachableSocket() throws Exception {
        try (Context context = new Context()) {
            openAndDrop(context);
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (!context.sockets.isEmpty() && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(10); // letting the Cleaner thread run; the loop ends on the observed state
            }
            assertEquals(0, context.sockets.size());
        }
    }

    @Test
    void cleanerFreesTheNativeMemoryOfAnUnreachablePoller() throws Exception {
        Poller.NativeItems memory = pollerMemoryOfADroppedPoller();
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (!memory.freed && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10); // letting the Cleaner thread run; the loop ends on the observed state
        }
        assertTrue(memory.freed, "an unreachable poller's native memory was not freed");
        try (Poller closed = new Poller()) {
            closed.close();
            assertTrue(closed.memory.freed, "close did not free the poller's native memory");
        }
    }

    private static Poller.NativeItems pollerMemoryOfADroppedPoller() {
        return new Poller().memory;
    }

    private static long openDescriptors() {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void openAndDrop(Context context) {
        Socket s = context.socket(SocketType.DEALER);
        s.bind("inproc://dropped");
    }

    @Test
    void manySocketsOpenAndCloseWithoutLeaks() throws Exception {
        // libzmq frees a closed socket's slot and descriptor when its reaper thread gets to it: room for all 2,000 at
        // once keeps a slow reaper (a loaded machine) from making zmq_socket fail with EMFILE (no free slot).
        try (Context context = new Context(1, 4096)) {
            long before = openDescriptors();
            for (int i = 0; i < 2000; i++) {
                try (Socket s = context.socket(SocketType.DEALER)) {
                    s.setOption(SocketOption.LINGER, Duration.ZERO);
                }
            }
            assertEquals(0, context.sockets.size());
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (openDescriptors() > before + 10 && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling an observable state (the reaper's progress), bounded by the deadline
            }
            assertTrue(openDescriptors() <= before + 10, openDescriptors() + " descriptors open, " + before + " before");
        }
    }
}
