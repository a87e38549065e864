package net.zmq;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Steers a proxy started with {@link Proxy#runSteerable}: pause, resume, statistics and terminate. It owns a pair of
 * inproc PAIR sockets, one given to the proxy, one it commands through. Use it from one thread at a time (commands
 * go through one socket) and close it after the proxy returned. A command sent while no proxy runs with it waits for
 * the next one (a proxy started after a {@link #terminate()} returns at once).
 */
public final class ProxyController implements AutoCloseable {
    private static final AtomicInteger NEXT = new AtomicInteger();
    final Socket proxySide;
    final Socket commander;
    /**
     * Whether the last state command sent was PAUSE: a proxy that a signal interrupted (libzmq's proxy then returns
     * and is run again) stays paused by it (see {@link Proxy}).
     */
    volatile boolean paused;
    /**
     * Replies still owed to statistics calls that gave up waiting. The proxy answers requests in order, so the next
     * call drops that many replies before its own, whenever they arrive.
     */
    private int owedReplies;

    /** Creates the control pair in context. */
    public ProxyController(Context context) {
        String endpoint = "inproc://net-zmq-proxy-control-" + NEXT.incrementAndGet();
        Socket side = new Socket(context, SocketType.PAIR);
        Socket control = null;
        try {
            control = new Socket(context, SocketType.PAIR);
            side.bind(endpoint);
            control.connect(endpoint);
        } catch (RuntimeException e) { // nothing left open
            if (control != null) {
                control.close();
            }
            side.close();
            throw e;
        }
        proxySide = side;
        commander = control;
    }

    /** Stops forwarding (messages queue up) until {@link #resume()}. */
    public void pause() {
        paused = true;
        commander.send("PAUSE");
    }

    /** Forwards again. */
    public void resume() {
        paused = false;
        commander.send("RESUME");
    }

    /** Makes the proxy return. */
    public void terminate() {
        paused = false; // a proxy run again with this controller starts forwarding
        commander.send("TERMINATE");
    }

    /**
     * The proxy's counters, waiting for its reply as long as it takes (with no proxy running, until one runs): since
     * it started, or since a signal last interrupted it (libzmq's proxy then returns, the binding runs it again, and
     * libzmq keeps no counts across).
     */
    public ProxyStatistics statistics() {
        return statistics(null);
    }

    /**
     * As {@link #statistics()}, waiting at most timeout (null or negative: forever; at most about 24 days, libzmq's
     * int milliseconds).
     *
     * @return the counters, or null when no proxy answered in time (its reply, when it comes, is dropped by a later
     *         call)
     */
    public ProxyStatistics statistics(Duration timeout) {
        boolean forever = Timeouts.isForever(timeout);
        long deadline = forever ? 0 : System.nanoTime()
                + (Timeouts.fitsIntMillis(timeout) ? timeout : Duration.ofMillis(Integer.MAX_VALUE)).toNanos();
        commander.send("STATISTICS");
        MultipartMessage reply;
        while (true) {
            commander.setOption(SocketOption.RCVTIMEO, forever ? null : Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            reply = commander.recvMultipart();
            if (reply == null) {
                owedReplies++; // this call's
                return null;
            }
            if (owedReplies == 0) {
                break;
            }
            owedReplies--; // an earlier call's, which gave up
        }
        if (reply.size() != 8) {
            throw new IllegalStateException("the proxy's statistics reply had " + reply.size() + " frames, not 8");
        }
        long[] v = new long[8];
        for (int i = 0; i < 8; i++) {
            v[i] = ByteBuffer.wrap(reply.get(i)).order(ByteOrder.nativeOrder()).getLong();
        }
        return new ProxyStatistics(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    }

    /** Closes both control sockets. */
    @Override
    public void close() {
        commander.close();
        proxySide.close();
    }
}
