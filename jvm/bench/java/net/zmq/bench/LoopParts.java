package net.zmq.bench;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import net.zmq.RecvFlags;
import net.zmq.SendFlags;
import net.zmq.internal.LibZmq;

/**
 * What each part of the binding costs the reused-buffer loop (a diagnostic, not part of the report): on one ROUTER
 * pair, five forms of the loop take turns with C's own loop run inside this JVM ({@link InProcessC}), the order
 * rotating every round: the binding with arrays (the suite's loop); the binding with native segments (no array copy,
 * one downcall per frame); the same calls made straight through the binding's downcall handles, without the socket's
 * claim (what libzmq and FFM alone cost); the binding's sends with those straight receives; and the binding with
 * native segments that the arrays are copied into before a send and out of after a receive (what staging an array
 * through native memory would cost, beside the binding's array path, which sends straight from the array and copies
 * a received frame straight into it). Prints each loop's median time and, per round, C's time over its time: the
 * mean with its 95% interval.
 * <p>The straight calls need the socket's libzmq handle, which the API does not expose: they read it by reflection
 * (the binding is on the class path here, not a module).
 * <p>Usage: LoopParts --native &lt;zmq_native_bench&gt; [--size N] [--rounds N]
 */
public final class LoopParts {
    private LoopParts() {
    }

    private static final int ZMQ_DONTWAIT = 1;
    private static final int ZMQ_SNDMORE = 2;

    public static void main(String[] args) throws Exception {
        Harness.LoopOptions options = Harness.LoopOptions.parse(args, 150);
        int size = options.size();
        int rounds = options.rounds();
        String nativeBench = options.nativeBench();
        if (nativeBench == null) {
            throw new IllegalArgumentException("--native <zmq_native_bench> is needed: C's loop is loaded from beside it");
        }
        int n = Suite.MESSAGES;
        int frame = size;
        byte[] payload = new byte[size];
        byte[] id = new byte[16];
        byte[] buffer = new byte[size];
        Arena arena = Arena.global();
        MemorySegment nativePayload = arena.allocate(size);
        MemorySegment stagedId = arena.allocate(RouterPair.RECEIVER_ID.length);
        MemorySegment nativeId = arena.allocate(16);
        MemorySegment nativeBuffer = arena.allocate(size);
        MemorySegment receiverId = arena.allocate(RouterPair.RECEIVER_ID.length);
        receiverId.copyFrom(MemorySegment.ofArray(RouterPair.RECEIVER_ID));
        List<AutoCloseable> senders = new ArrayList<>(); // closed before the pair
        try (RouterPair pair = new RouterPair(); InProcessC c = InProcessC.beside(nativeBench)) {
            try {
                MemorySegment senderHandle = Harness.nativeHandle(pair.sender);
                MemorySegment receiverHandle = Harness.nativeHandle(pair.receiver);
                Runnable segmentSends = () -> {
                    for (int m = 0; m < n; m++) {
                        pair.sender.send(receiverId, SendFlags.SEND_MORE);
                        pair.sender.send(nativePayload, SendFlags.NONE);
                    }
                };
                Runnable straightReceives = () -> {
                    for (int m = 0; m < n; m++) {
                        LibZmq.recv(LibZmq.CALL_ORDINARY, null, receiverHandle, nativeId, 16, 0);
                        LibZmq.recv(LibZmq.CALL_ORDINARY, null, receiverHandle, nativeBuffer, frame, 0);
                    }
                };
                // Each form: its sending loop (on a sender thread of its own) and its receiving loop (on this thread).
                String[] names = {"binding, arrays", "binding, native segments", "straight calls, no claim", "binding sends, straight receives",
                    "binding, arrays staged in segments"};
                Runnable[] sends = {
                    () -> Suite.sendReused(pair.sender, payload),
                    segmentSends,
                    () -> {
                        for (int m = 0; m < n; m++) {
                            LibZmq.send(LibZmq.CALL_CRITICAL, null, senderHandle, receiverId, receiverId.byteSize(), ZMQ_SNDMORE | ZMQ_DONTWAIT);
                            LibZmq.send(LibZmq.CALL_CRITICAL, null, senderHandle, nativePayload, frame, ZMQ_DONTWAIT);
                        }
                    },
                    segmentSends,
                    () -> {
                        for (int m = 0; m < n; m++) {
                            MemorySegment.copy(RouterPair.RECEIVER_ID, 0, stagedId, JAVA_BYTE, 0, RouterPair.RECEIVER_ID.length);
                            pair.sender.send(stagedId, SendFlags.SEND_MORE);
                            MemorySegment.copy(payload, 0, nativePayload, JAVA_BYTE, 0, frame);
                            pair.sender.send(nativePayload, SendFlags.NONE);
                        }
                    },
                };
                Runnable[] receives = {
                    () -> {
                        for (int m = 0; m < n; m++) {
                            pair.receiver.recv(id);
                            pair.receiver.recv(buffer);
                        }
                    },
                    () -> {
                        for (int m = 0; m < n; m++) {
                            pair.receiver.recv(nativeId, RecvFlags.NONE);
                            pair.receiver.recv(nativeBuffer, RecvFlags.NONE);
                        }
                    },
                    straightReceives,
                    straightReceives,
                    () -> {
                        for (int m = 0; m < n; m++) {
                            int idSize = pair.receiver.recv(nativeId, RecvFlags.NONE);
                            MemorySegment.copy(nativeId, JAVA_BYTE, 0, id, 0, Math.min(idSize, id.length));
                            int received = pair.receiver.recv(nativeBuffer, RecvFlags.NONE);
                            MemorySegment.copy(nativeBuffer, JAVA_BYTE, 0, buffer, 0, Math.min(received, frame));
                        }
                    },
                };
                int forms = names.length;
                Runnable[] loops = new Runnable[forms];
                for (int f = 0; f < forms; f++) {
                    Harness.Sender sender = new Harness.Sender("bench-sender-" + f, sends[f]);
                    senders.add(sender);
                    Runnable receive = receives[f];
                    loops[f] = () -> {
                        sender.start();
                        receive.run();
                        sender.await();
                    };
                }
                long[][] times = new long[forms + 1][rounds]; // the last row: C's loop
                Runnable round = () -> {
                    for (int f = 0; f < forms; f++) {
                        loops[f].run();
                    }
                    c.run(frame, n);
                };
                int warmed = Harness.warmUp(round, 20);
                for (int r = 0; r < rounds; r++) {
                    for (int k = 0; k <= forms; k++) {
                        int f = (k + r) % (forms + 1);
                        if (f == forms) {
                            times[f][r] = c.run(size, n);
                        } else {
                            long start = System.nanoTime();
                            loops[f].run();
                            times[f][r] = System.nanoTime() - start;
                        }
                    }
                }
                System.out.printf("%d B, %d rounds of %d messages after %d warm-up rounds: C's loop inside this JVM, median %.3f ms%n",
                        size, rounds, n, warmed, Suite.median(times[forms]) / 1e6);
                for (int f = 0; f < forms; f++) {
                    double[] ratios = new double[rounds];
                    for (int r = 0; r < rounds; r++) {
                        ratios[r] = (double) times[forms][r] / times[f][r];
                    }
                    System.out.printf("  %-34s median %.3f ms; C / it per round %.3f ± %.3f%n", names[f],
                            Suite.median(times[f]) / 1e6, Suite.mean(ratios), Suite.halfInterval(ratios));
                }
            } finally {
                for (AutoCloseable sender : senders) {
                    sender.close();
                }
            }
        }
    }
}
