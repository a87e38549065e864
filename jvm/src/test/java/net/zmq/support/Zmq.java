package net.zmq.support;

import java.lang.ref.WeakReference;
import java.time.Duration;
import net.zmq.Context;
import net.zmq.Socket;
import net.zmq.SocketOption;
import net.zmq.SocketType;

/** Helpers shared by the tests: bounded waits and connected pairs on ephemeral ports. */
public final class Zmq {
    private Zmq() {
    }

    /** The longest any test waits for something that should happen at once. */
    public static final Duration WAIT = Duration.ofSeconds(10);
    /** How long a test waits to see that something does not happen. */
    public static final Duration SHORT = Duration.ofMillis(200);

    /** A socket whose receives and sends give up after {@link #WAIT} (so a broken test fails instead of hanging). */
    public static Socket socket(Context context, SocketType type) {
        Socket socket = context.socket(type);
        socket.setOption(SocketOption.RCVTIMEO, WAIT);
        socket.setOption(SocketOption.SNDTIMEO, WAIT);
        socket.setOption(SocketOption.LINGER, Duration.ZERO);
        return socket;
    }

    /** Whether reference's object is collected within {@link #WAIT}, asking for collections until then. */
    public static boolean collected(WeakReference<?> reference) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (reference.get() != null && System.nanoTime() < deadline) {
            System.gc();
        }
        return reference.get() == null;
    }

    /** Binds a on a wildcard endpoint of transport ("tcp", "inproc", "ipc") and connects b to it. */
    public static void connect(Socket a, Socket b, String transport) {
        String endpoint = switch (transport) {
            case "tcp" -> "tcp://127.0.0.1:*";
            case "ipc" -> "ipc://*";
            default -> "inproc://t-" + System.nanoTime() + "-" + Thread.currentThread().threadId();
        };
        a.bind(endpoint);
        b.connect(transport.equals("inproc") ? endpoint : a.lastEndpoint());
    }
}
