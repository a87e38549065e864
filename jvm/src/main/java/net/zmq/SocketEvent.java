package net.zmq;

/** What a {@link SocketMonitor} reports (libzmq's ZMQ_EVENT_* bits). */
public enum SocketEvent {
    CONNECTED(0x0001), CONNECT_DELAYED(0x0002), CONNECT_RETRIED(0x0004), LISTENING(0x0008), BIND_FAILED(0x0010),
    ACCEPTED(0x0020), ACCEPT_FAILED(0x0040), CLOSED(0x0080), CLOSE_FAILED(0x0100), DISCONNECTED(0x0200),
    MONITOR_STOPPED(0x0400), HANDSHAKE_FAILED_NO_DETAIL(0x0800), HANDSHAKE_SUCCEEDED(0x1000),
    HANDSHAKE_FAILED_PROTOCOL(0x2000), HANDSHAKE_FAILED_AUTH(0x4000);

    /** Every event. */
    public static final int ALL = 0xFFFF;

    private final int bit;

    SocketEvent(int bit) {
        this.bit = bit;
    }

    /** The event's bit, to combine into the mask {@link SocketMonitor} takes. */
    public int bit() {
        return bit;
    }

    static SocketEvent of(int bit) {
        for (SocketEvent event : values()) {
            if (event.bit == bit) {
                return event;
            }
        }
        return null;
    }
}
