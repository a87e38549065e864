package net.zmq;

/** How a send behaves: whether it waits for room (HWM), and whether more frames of the message follow. */
public enum SendFlags {
    /** Wait for room, last (or only) frame. */
    NONE(0),
    /** Return false instead of waiting when the message cannot be queued now (EAGAIN). */
    DONT_WAIT(1),
    /** More frames of this message follow. */
    SEND_MORE(2),
    /** Both {@link #DONT_WAIT} and {@link #SEND_MORE}. */
    DONT_WAIT_SEND_MORE(3);

    final int value;

    SendFlags(int value) {
        this.value = value;
    }

    boolean dontWait() {
        return (value & 1) != 0;
    }
}
