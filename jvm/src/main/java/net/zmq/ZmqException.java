package net.zmq;

import net.zmq.internal.LibZmq;

/** A libzmq call failed: {@link #errno()} is libzmq's error number; the message says which call and why. */
public class ZmqException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int errno;

    /**
     * @param errno libzmq's error number
     * @param what  what the binding was doing, e.g. "Binding tcp://127.0.0.1:5555 (zmq_bind)"
     */
    public ZmqException(int errno, String what) {
        super(what + " failed: " + LibZmq.strerror(errno) + " (errno " + errno + ")");
        this.errno = errno;
    }

    /** libzmq's error number (errno), e.g. 98 for EADDRINUSE on Linux. */
    public int errno() {
        return errno;
    }
}
