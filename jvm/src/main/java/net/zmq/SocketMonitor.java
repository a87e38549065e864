package net.zmq;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Receives a socket's events (zmq_socket_monitor): connections, handshakes, disconnections. Create it on the
 * monitored socket's thread (it configures that socket), then {@link #receive} on any one thread; close it before the
 * monitored socket.
 */
public final class SocketMonitor implements AutoCloseable {
    private static final AtomicInteger NEXT = new AtomicInteger();
    private final Socket monitored;
    private final Socket events;

    /**
     * Starts monitoring socket for the given events.
     *
     * @param eventMask {@link SocketEvent} bits ({@link SocketEvent#ALL} for all)
     */
    public SocketMonitor(Socket socket, int eventMask) {
        String endpoint = "inproc://net-zmq-monitor-" + NEXT.incrementAndGet();
        socket.monitor(endpoint, eventMask);
        monitored = socket;
        events = new Socket(socket.context(), SocketType.PAIR);
        events.connect(endpoint);
    }

    /**
     * The next event, waiting at most timeout (null: forever).
     *
     * @return the event, or null when none came in time
     */
    public SocketMonitorEvent receive(Duration timeout) {
        events.setOption(SocketOption.RCVTIMEO, timeout);
        byte[] header = events.recvBytes();
        if (header == null) {
            return null;
        }
        String endpoint = events.recvString();
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int id = b.getShort(0) & 0xFFFF;
        int value = b.getInt(2);
        return new SocketMonitorEvent(SocketEvent.of(id), value, endpoint == null ? "" : endpoint);
    }

    /** Waits at most timeout for the given event, skipping others. @return it, or null when it did not come */
    public SocketMonitorEvent await(SocketEvent wanted, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            SocketMonitorEvent event = receive(Duration.ofNanos(left).plusMillis(1));
            if (event != null && event.event() == wanted) {
                return event;
            }
        }
    }

    /** Stops monitoring (when the monitored socket is still open) and closes the event socket. */
    @Override
    public void close() {
        if (!monitored.isClosed()) {
            try {
                monitored.monitor(null, 0);
            } catch (IllegalStateException | ZmqException e) {
                // closed or in use meanwhile: its close ends the monitoring anyway
            }
        }
        events.close();
    }
}
