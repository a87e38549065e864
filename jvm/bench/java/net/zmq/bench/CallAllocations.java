package net.zmq.bench;

import net.zmq.Poller;
import net.zmq.RecvFlags;

/**
 * Which single call allocates (a diagnostic, not part of the report): the Poller receive mode's loop at 64 B, with the
 * receiving thread's allocated bytes read around every poll and every receive; prints each call after the first
 * operation that allocated anything, then the total. Run it with and without
 * {@code -Djava.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD=0} to see the JVM's one-time customisation of a downcall
 * handle land in a late operation or in the first one (jvm/README.md).
 * <p>Usage: CallAllocations [--operations N]
 */
public final class CallAllocations {
    private CallAllocations() {
    }

    private static long allocated() {
        return Harness.THREADS.getCurrentThreadAllocatedBytes();
    }

    public static void main(String[] args) {
        int operations = 60;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--operations" -> operations = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        byte[] payload = new byte[64];
        byte[] id = new byte[16];
        byte[] buffer = new byte[64];
        long total = 0;
        try (RouterPair pair = new RouterPair(); Poller poller = new Poller();
             Harness.Sender sender = new Harness.Sender(() -> Suite.sendReused(pair.sender, payload))) {
            poller.add(pair.receiver, Poller.READABLE);
            for (int op = 0; op < operations; op++) {
                sender.start();
                int frames = 0;
                long polls = 0;
                while (frames < 2 * Suite.MESSAGES) {
                    long before = allocated();
                    poller.poll(null);
                    long bytes = allocated() - before;
                    if (bytes > 0 && op > 0) {
                        System.out.printf("operation %d, poll %d: %d B%n", op, polls, bytes);
                        total += bytes;
                    }
                    polls++;
                    while (frames < 2 * Suite.MESSAGES) {
                        before = allocated();
                        boolean got = pair.receiver.recv(frames % 2 == 0 ? id : buffer, RecvFlags.DONT_WAIT) >= 0;
                        bytes = allocated() - before;
                        if (bytes > 0 && op > 0) {
                            System.out.printf("operation %d, receive of frame %d (%s): %d B%n", op, frames, got ? "got it" : "EAGAIN", bytes);
                            total += bytes;
                        }
                        if (!got) {
                            break;
                        }
                        frames++;
                    }
                }
                sender.await();
            }
        }
        System.out.printf("calls after the first operation allocated %d B in all (customisation threshold %s)%n", total,
                System.getProperty("java.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD", "the JVM's default"));
    }
}
