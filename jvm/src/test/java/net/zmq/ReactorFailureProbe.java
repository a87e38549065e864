package net.zmq;

import java.io.FileInputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import net.zmq.internal.Reactor;

/**
 * Run in a child JVM by {@link VirtualThreadTests}, as it stops the process's reactor: closes the reactor's epoll
 * descriptor under it while virtual threads wait in a recv and in a poll, so that its next epoll_wait fails. Exits 0
 * once the threads parked at that moment have moved into libzmq's blocking call and got their frame there, and a
 * wait begun after it has too; 1 with the reason otherwise. With {@code -Dprobe.failedStart=true} the reactor instead
 * cannot start (see {@link #failedStart}).
 */
public final class ReactorFailureProbe {
    private static final long WAIT_SECONDS = 20;

    /** A wait on its own virtual thread. */
    private record Waiter(Thread thread, CompletableFuture<String> result) {
    }

    public static void main(String[] args) throws Throwable {
        try (Context context = new Context(); Socket pushA = context.socket(SocketType.PUSH); Socket pullA = context.socket(SocketType.PULL);
             Socket pushB = context.socket(SocketType.PUSH); Socket pullB = context.socket(SocketType.PULL);
             Socket pushC = context.socket(SocketType.PUSH); Socket pullC = context.socket(SocketType.PULL)) {
            Socket[][] pairs = {{pushA, pullA}, {pushB, pullB}, {pushC, pullC}};
            for (int i = 0; i < pairs.length; i++) {
                pairs[i][1].bind("inproc://reactor-failure-" + i);
                pairs[i][0].connect("inproc://reactor-failure-" + i);
            }
            if (Boolean.getBoolean("probe.failedStart")) {
                failedStart(pushA, pullA);
                return;
            }
            Waiter a = start(pullA::recvString);
            Waiter b = start(pullB::recvString);
            Waiter c = start(() -> {
                try (Poller poller = new Poller()) {
                    poller.add(pullC, Poller.READABLE);
                    return poller.poll(null) == 1 ? pullC.recvString() : "the poll returned without a frame";
                }
            });
            for (Waiter w : new Waiter[] {a, b, c}) {
                awaitState(w, ReactorFailureProbe::parked, "park in its wait");
            }
            closeTheReactorsDescriptor();
            pushA.send("a"); // the reactor's epoll_wait in progress wakes the first thread; its next one fails
            expect("a", a, "the recv woken by the last event the reactor delivered");
            // The threads parked when the reactor stopped are woken and wait in libzmq from then on: only there does a
            // frame sent now reach them, as nothing wakes a park any more.
            awaitState(b, ReactorFailureProbe::inLibzmq, "leave its park for libzmq's blocking recv");
            awaitState(c, ReactorFailureProbe::inLibzmq, "leave its park for libzmq's blocking poll");
            if (Reactor.available()) {
                fail("the reactor still reports itself available");
            }
            pushB.send("b");
            expect("b", b, "a recv parked when the reactor stopped");
            pushC.send("c");
            expect("c", c, "a poll parked when the reactor stopped");
            Waiter d = start(pullA::recvString);
            pushA.send("d");
            expect("d", d, "a recv begun after the reactor stopped");
        }
        System.out.println("waits survived the reactor's failure");
        System.exit(0);
    }

    /**
     * The reactor cannot start: with no descriptor left for its epoll set, the first virtual thread to wait starts it,
     * which fails; that wait, and those after it, block in libzmq instead.
     */
    private static void failedStart(Socket push, Socket pull) throws Throwable {
        loadTheClassPath();
        // The same for the logger the reactor reports its failure through (its first message reads the time zones).
        System.getLogger(Reactor.class.getName()).log(System.Logger.Level.INFO, "the descriptors are about to run out");
        if (!Reactor.available()) {
            fail("the reactor is not available before it started");
        }
        List<FileInputStream> filler = new ArrayList<>();
        lowerDescriptorLimit();
        try {
            while (true) {
                filler.add(new FileInputStream("/dev/null"));
            }
        } catch (IOException noneLeft) {
            // every descriptor under the limit is taken
        }
        Waiter a = start(pull::recvString);
        awaitState(a, t -> !Reactor.available(), "try to start the reactor, which fails");
        awaitState(a, ReactorFailureProbe::inLibzmq, "wait in libzmq's blocking recv");
        for (FileInputStream f : filler) {
            f.close();
        }
        push.send("a");
        expect("a", a, "a recv begun as the reactor could not start");
        Waiter b = start(pull::recvString);
        push.send("b");
        expect("b", b, "a recv begun after the reactor could not start");
        System.out.println("waits survived the reactor's failed start");
        System.exit(0);
    }

    /**
     * Loading a class from a class-path directory takes a descriptor: loads every class there now, without initialising
     * any (initialising the reactor's holder would start the reactor). Classes that cannot be linked here are skipped.
     */
    private static void loadTheClassPath() throws IOException {
        ClassLoader loader = ReactorFailureProbe.class.getClassLoader();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            java.nio.file.Path root = java.nio.file.Path.of(entry);
            if (!java.nio.file.Files.isDirectory(root)) {
                continue; // a jar stays open once read: its classes need no more descriptors
            }
            try (var files = java.nio.file.Files.walk(root)) {
                for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                    String name = root.relativize(file).toString().replace(java.io.File.separatorChar, '.');
                    try {
                        Class.forName(name.substring(0, name.length() - ".class".length()), false, loader);
                    } catch (ClassNotFoundException | LinkageError skipped) {
                        // not needed by this probe (a test class whose JUnit types are not on this class path)
                    }
                }
            }
        }
    }

    /** Lowers this process's soft RLIMIT_NOFILE to a few more than it has open now (setrlimit through FFM). */
    private static void lowerDescriptorLimit() throws Throwable {
        int rlimitNofile = 7; // Linux, x86-64 and arm64
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor rlimit = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        MethodHandle get = linker.downcallHandle(linker.defaultLookup().find("getrlimit").orElseThrow(), rlimit);
        MethodHandle set = linker.downcallHandle(linker.defaultLookup().find("setrlimit").orElseThrow(), rlimit);
        long open;
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            open = fds.count();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment limits = arena.allocate(16); // struct rlimit: soft, hard
            if ((int) get.invokeExact(rlimitNofile, limits) != 0) {
                fail("getrlimit failed");
            }
            limits.set(ValueLayout.JAVA_LONG, 0, open + 16);
            if ((int) set.invokeExact(rlimitNofile, limits) != 0) {
                fail("setrlimit failed");
            }
        }
    }

    private static Waiter start(Supplier<String> wait) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                result.complete(wait.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return new Waiter(t, result);
    }

    private static void awaitState(Waiter w, Predicate<Thread> state, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!state.test(w.thread())) {
            if (System.nanoTime() > deadline || w.result().isDone()) {
                fail("a virtual thread did not " + what + (w.result().isDone()
                        ? " (it ended: " + w.result().handle((v, e) -> e != null ? e.toString() : "returned " + v).join() + ")" : ""));
            }
            Thread.sleep(1); // polling the thread's observed state, not waiting for time to pass
        }
    }

    /** Parked waiting for the reactor to wake it. */
    private static boolean parked(Thread t) {
        return t.getState() == Thread.State.WAITING && onStack(t, "parkUntil");
    }

    /** Inside libzmq's own blocking call: no longer in the binding's wait on the reactor. */
    private static boolean inLibzmq(Thread t) {
        return t.getState() == Thread.State.RUNNABLE && !onStack(t, "failedAgain") && !onStack(t, "pollParking")
                && Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().equals("net.zmq.internal.LibZmq"));
    }

    private static boolean onStack(Thread t, String method) {
        return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getMethodName().equals(method));
    }

    private static void closeTheReactorsDescriptor() throws Throwable {
        java.lang.reflect.Field field = Class.forName("net.zmq.internal.Reactor$Holder").getDeclaredField("EPOLL_FD");
        field.setAccessible(true);
        int fd = field.getInt(null);
        Linker linker = Linker.nativeLinker();
        MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        if ((int) close.invokeExact(fd) != 0) {
            fail("close(" + fd + ") failed");
        }
    }

    private static void expect(String frame, Waiter w, String what) throws Exception {
        try {
            String got = w.result().get(WAIT_SECONDS, TimeUnit.SECONDS);
            if (!frame.equals(got)) {
                fail(what + " got " + got + " instead of " + frame);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            fail(what + " did not get its frame in " + WAIT_SECONDS + " s");
        }
    }

    private static void fail(String why) {
        System.out.println(why);
        System.exit(1);
    }
}
