package net.zmq;

import net.zmq.internal.Errno;

/**
 * The socket's context was closed or shut down (ETERM) while a call was waiting or before it started: close the
 * socket; the context finishes terminating when its last socket is closed.
 */
public final class ContextTerminatedException extends ZmqException {
    private static final long serialVersionUID = 1L;

    ContextTerminatedException(String what) {
        super(Errno.ETERM, what);
    }
}
