package net.zmq;

/** How a receive behaves. */
public enum RecvFlags {
    /** Wait for a frame (bounded by {@link SocketOption#RCVTIMEO}). */
    NONE(0),
    /** Return -1, false or null instead of waiting when no frame is queued (EAGAIN). */
    DONT_WAIT(1);

    final int value;

    RecvFlags(int value) {
        this.value = value;
    }
}
