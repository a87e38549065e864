package net.zmq.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.zmq.Message;
import net.zmq.RecvFlags;
import net.zmq.SendFlags;

/**
 * Each side of the reused-buffer loop alone, in the thread's CPU time (a diagnostic, not part of the report): the
 * thread queues 10,000 two-frame messages while the receiver does not read, waits for libzmq's I/O thread to move them
 * into the receiver's queue, then drains them; then the same with a new {@link Message} per message on each side (the
 * sender's a copy of the payload). Prints the CPU time per message over the rounds, and the bytes allocated. With
 * --native, each round first runs the same two sides in the native C baseline ({@code zmq_native_bench serve}'s "sides"
 * command, the same libzmq) and prints its figures beside the reused-buffer loop's.
 * <p>Usage: Sides [--size N] [--rounds N] [--native &lt;zmq_native_bench&gt;]
 */
public final class Sides {
    private Sides() {
    }

    public static void main(String[] args) throws Exception {
        Harness.LoopOptions options = Harness.LoopOptions.parse(args, 40);
        int size = options.size();
        int rounds = options.rounds();
        String nativeBench = options.nativeBench();
        int n = Suite.MESSAGES;
        byte[] payload = new byte[size];
        byte[] id = new byte[16];
        byte[] buffer = new byte[size];
        long[] send = new long[rounds];
        long[] receive = new long[rounds];
        long allocated = 0;
        long[] sendMessages = new long[rounds];
        long[] receiveMessages = new long[rounds];
        long allocatedSending = 0;
        long allocatedReceiving = 0;
        long[] nativeSend = new long[rounds];
        long[] nativeReceive = new long[rounds];
        Process process = nativeBench == null ? null : Suite.startNative(nativeBench);
        try (RouterPair pair = new RouterPair();
             BufferedReader in = process == null ? null : new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
             PrintWriter cmd = process == null ? null : new PrintWriter(process.getOutputStream(), true, StandardCharsets.US_ASCII)) {
            if (in != null) {
                Suite.awaitReady(in);
            }
            for (int r = -20; r < rounds; r++) { // 20 warm-up rounds
                if (cmd != null) {
                    cmd.println("sides " + size + " " + n);
                    String line = in.readLine();
                    if (line == null) {
                        throw new IllegalStateException("the native baseline exited");
                    }
                    String[] words = line.split(" ");
                    if (r >= 0) {
                        nativeSend[r] = Long.parseLong(words[0]);
                        nativeReceive[r] = Long.parseLong(words[1]);
                    }
                }
                long a0 = Harness.THREADS.getCurrentThreadAllocatedBytes();
                long t0 = Harness.THREADS.getCurrentThreadCpuTime();
                for (int m = 0; m < n; m++) {
                    pair.sender.send(RouterPair.RECEIVER_ID, SendFlags.SEND_MORE);
                    pair.sender.send(payload, SendFlags.NONE);
                }
                long t1 = Harness.THREADS.getCurrentThreadCpuTime();
                Thread.sleep(30); // libzmq's I/O thread moves them into the receiver's queue
                long t2 = Harness.THREADS.getCurrentThreadCpuTime();
                for (int m = 0; m < n; m++) {
                    pair.receiver.recv(id);
                    pair.receiver.recv(buffer);
                }
                long t3 = Harness.THREADS.getCurrentThreadCpuTime();
                if (r >= 0) {
                    send[r] = t1 - t0;
                    receive[r] = t3 - t2;
                    allocated += Harness.THREADS.getCurrentThreadAllocatedBytes() - a0;
                }
                // The same with a new Message per message on each side, the sender's a copy of the payload.
                a0 = Harness.THREADS.getCurrentThreadAllocatedBytes();
                t0 = Harness.THREADS.getCurrentThreadCpuTime();
                for (int m = 0; m < n; m++) {
                    pair.sender.send(RouterPair.RECEIVER_ID, SendFlags.SEND_MORE);
                    try (Message message = new Message(payload)) {
                        pair.sender.send(message, SendFlags.NONE);
                    }
                }
                t1 = Harness.THREADS.getCurrentThreadCpuTime();
                long a1 = Harness.THREADS.getCurrentThreadAllocatedBytes();
                Thread.sleep(30);
                t2 = Harness.THREADS.getCurrentThreadCpuTime();
                for (int m = 0; m < n; m++) {
                    pair.receiver.recv(id);
                    try (Message message = new Message()) {
                        pair.receiver.recv(message, RecvFlags.NONE);
                    }
                }
                t3 = Harness.THREADS.getCurrentThreadCpuTime();
                if (r >= 0) {
                    sendMessages[r] = t1 - t0;
                    receiveMessages[r] = t3 - t2;
                    allocatedSending += a1 - a0;
                    allocatedReceiving += Harness.THREADS.getCurrentThreadAllocatedBytes() - a1;
                }
            }
            if (cmd != null) {
                cmd.println("quit");
            }
        } finally {
            if (process != null) {
                process.waitFor();
            }
        }
        System.out.printf("%d B: send cpu ns/msg min %.0f median %.0f | receive (all queued) cpu ns/msg min %.0f median %.0f | %.2f B/msg%n", size,
                Arrays.stream(send).min().orElseThrow() / (double) n, Suite.median(send) / n,
                Arrays.stream(receive).min().orElseThrow() / (double) n, Suite.median(receive) / n, allocated / (double) rounds / n);
        System.out.printf("%d B, a new Message per message: send cpu ns/msg median %.0f, %.1f B/msg | receive cpu ns/msg median %.0f, %.1f B/msg%n", size,
                Suite.median(sendMessages) / n, allocatedSending / (double) rounds / n, Suite.median(receiveMessages) / n,
                allocatedReceiving / (double) rounds / n);
        if (process != null) {
            System.out.printf("%d B, native C: send cpu ns/msg min %.0f median %.0f | receive cpu ns/msg min %.0f median %.0f | JVM / C (medians): send %.2f, receive %.2f%n",
                    size, Arrays.stream(nativeSend).min().orElseThrow() / (double) n, Suite.median(nativeSend) / n,
                    Arrays.stream(nativeReceive).min().orElseThrow() / (double) n, Suite.median(nativeReceive) / n,
                    Suite.median(send) / Suite.median(nativeSend), Suite.median(receive) / Suite.median(nativeReceive));
        }
    }
}
