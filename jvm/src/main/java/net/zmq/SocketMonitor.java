package net.zmq;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Receives a socket's events (zmq_socket_monitor): connections, handshakes, disconnections. Create it on the
 * monitored socket's thread (it configures that socket), then {@link #receive} on any one thread; close it when done,
 * before or after the monitored socket. One never closed keeps its event socket, and the events nobody reads, until
 * the monitored socket is closed.
 */
public final class SocketMonitor implements AutoCloseable {
    private static final AtomicInteger NEXT = new AtomicInteger();
    private final Socket monitored;
    private final Socket events;

    /**
     * Starts monitoring socket for the given events.
     *
     * @param eventMask {@link SocketEvent} bits ({@link SocketEvent#ALL} for all)
     * @throws IllegalArgumentException eventMask has a bit outside {@link SocketEvent#ALL}
     */
    public SocketMonitor(Socket socket, int eventMask) {
        if ((eventMask & ~SocketEvent.ALL) != 0) {
            throw new IllegalArgumentException("eventMask 0x" + Integer.toHexString(eventMask) + " has bits outside "
                    + "SocketEvent.ALL (0xffff): combine SocketEvent's constants");
        }
        String endpoint = "inproc://net-zmq-monitor-" + NEXT.incrementAndGet();
        monitored = socket;
        events = new Socket(socket.context(), SocketType.PAIR);
        try {
            // libzmq 4.3 sends each event from its I/O and reaper threads with a blocking send: with the pipe full
            // (events nobody reads), or without this socket as its peer, that thread would stop. No limit on this side
            // keeps the pipe from filling; connected before libzmq binds its end, this socket is the peer of the first
            // event; the monitored socket holds it until the monitoring stops (see SocketCore.monitorEvents).
            events.setOption(SocketOption.RCVHWM, 0);
            events.connect(endpoint);
            socket.monitor(endpoint, eventMask, events);
        } catch (RuntimeException e) {
            events.close();
            throw e;
        }
    }

    /**
     * The next event, waiting at most timeout (null, negative or longer than about 146 years: forever).
     *
     * @return the event, or null when none came in time
     */
    public SocketMonitorEvent receive(Duration timeout) {
        return next(Timeouts.deadline(timeout));
    }

    /**
     * Waits at most timeout (as {@link #receive}) for the given event, skipping others.
     *
     * @return it, or null when it did not come
     */
    public SocketMonitorEvent await(SocketEvent wanted, Duration timeout) {
        long deadline = Timeouts.deadline(timeout);
        while (true) {
            SocketMonitorEvent event = next(deadline);
            if (event == null || event.event() == wanted) {
                return event;
            }
        }
    }

    /**
     * The next event, waiting until deadline (System.nanoTime(); 0: forever); a wait longer than RCVTIMEO can say
     * (int milliseconds, about 24 days) is made of several.
     */
    private SocketMonitorEvent next(long deadline) {
        boolean forever = deadline == 0;
        byte[] header;
        boolean lastWait;
        do {
            long leftMs = forever ? -1 : Timeouts.left(deadline, 0);
            lastWait = !forever && leftMs <= Integer.MAX_VALUE;
            events.setOption(SocketOption.RCVTIMEO, forever ? null : Duration.ofMillis(Math.min(leftMs, Integer.MAX_VALUE)));
            header = events.recvBytes();
        } while (header == null && !lastWait);
        if (header == null) {
            return null;
        }
        String endpoint = events.recvString();
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.nativeOrder()); // libzmq copies the fields in its own order
        int id = b.getShort(0) & 0xFFFF;
        int value = b.getInt(2);
        return new SocketMonitorEvent(SocketEvent.of(id), value, endpoint == null ? "" : endpoint);
    }

    /**
     * Stops monitoring (when the monitored socket is still open) and closes the event socket. Idempotent.
     *
     * @throws IllegalStateException another thread is inside a call on the monitored socket: the monitor stays open
     *                               (closing its event socket while libzmq still monitors would stop libzmq's I/O
     *                               thread at the next event); close it from that thread, or once the call returned
     */
    @Override
    public void close() {
        if (events.isClosed()) {
            return;
        }
        if (!monitored.isClosed() && monitored.core.monitorsInto(events)) { // else a later monitor call replaced it
            try {
                monitored.monitor(null, 0);
            } catch (ContextTerminatedException e) {
                // The context was shut down: libzmq stopped the monitoring as its socket saw that.
            } catch (IllegalStateException e) {
                if (!monitored.isClosed()) { // closed meanwhile: its close ended the monitoring
                    throw new IllegalStateException("cannot stop monitoring: " + e.getMessage(), e);
                }
            }
        }
        if (monitored.isClosed()) {
            monitored.core.awaitMonitoringStopped(); // the close may be stopping it on another thread now
        }
        events.close();
    }
}
