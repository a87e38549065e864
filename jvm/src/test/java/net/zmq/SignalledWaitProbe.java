package net.zmq;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a child JVM by {@link InterruptedWaitTests}, with one carrier thread: a virtual thread waits in a blocking
 * receive while one thread unparks it again and again (each wake reads ZMQ_EVENTS, which polls the socket's mailbox)
 * and another sends its carrier SIGPIPE as fast as it can, so that some of those reads fail with EINTR. Exits 0 with
 * the number of wakes once the receive got the frame sent after three seconds of that; 1 with what it got otherwise.
 */
public final class SignalledWaitProbe {
    private static final int SIGPIPE = 13;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PTHREAD_SELF = libc("pthread_self", FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle PTHREAD_KILL = libc("pthread_kill", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));

    private static MethodHandle libc(String name, FunctionDescriptor type) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), type);
    }

    public static void main(String[] args) throws Throwable {
        try (Context context = new Context(); Socket pull = context.socket(SocketType.PULL);
             Socket push = context.socket(SocketType.PUSH)) {
            pull.bind("inproc://signalled-wait");
            push.connect("inproc://signalled-wait");
            CompletableFuture<Long> carrier = new CompletableFuture<>();
            CompletableFuture<String> received = new CompletableFuture<>();
            Thread receiver = Thread.ofVirtual().start(() -> {
                try {
                    carrier.complete((long) PTHREAD_SELF.invokeExact()); // the only carrier (parallelism 1)
                    received.complete(pull.recvString());
                } catch (Throwable t) {
                    received.completeExceptionally(t);
                }
            });
            long pthread = carrier.get(10, TimeUnit.SECONDS);
            AtomicBoolean storming = new AtomicBoolean(true);
            long[] wakes = new long[1];
            Thread unparker = Thread.ofPlatform().start(() -> {
                while (storming.get()) {
                    LockSupport.unpark(receiver);
                    wakes[0]++;
                    Thread.onSpinWait();
                }
            });
            Thread signaller = Thread.ofPlatform().start(() -> {
                try {
                    while (storming.get()) {
                        int ignored = (int) PTHREAD_KILL.invokeExact(pthread, SIGPIPE); // fails only once the thread ended
                    }
                } catch (Throwable t) {
                    throw new AssertionError(t);
                }
            });
            long end = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < end && !received.isDone()) {
                Thread.sleep(50); // the storm's length, not a synchronisation: the receive must still be waiting after it
            }
            storming.set(false);
            unparker.join();
            signaller.join();
            if (received.isDone()) {
                System.out.println("the receive ended during the storm: " + received.handle((v, t) -> t != null ? t.toString() : v).get());
                System.exit(1);
            }
            push.send("after the storm");
            String got = received.get(10, TimeUnit.SECONDS);
            System.out.println("received '" + got + "' after " + wakes[0] + " unparks under signals");
            System.exit(got.equals("after the storm") ? 0 : 1);
        }
    }
}
