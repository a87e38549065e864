package net.zmq;

import java.lang.foreign.MemorySegment;
import net.zmq.internal.Errno;
import net.zmq.internal.LibZmq;

/**
 * Forwards messages between a frontend and a backend socket (zmq_proxy), optionally copying them to a capture socket,
 * on the calling thread until the context is closed or a {@link ProxyController} terminates it. The proxy holds the
 * sockets' claims while it runs: other threads must not call them. It is one libzmq call for the proxy's whole life:
 * run it on a platform thread (a virtual thread would pin its carrier all that time).
 */
public final class Proxy {
    private Proxy() {
    }

    /**
     * Runs a proxy until the sockets' context is closed (then returns normally).
     *
     * @param capture a socket that gets a copy of every message, or null
     */
    public static void run(Socket frontend, Socket backend, Socket capture) {
        run(frontend, backend, capture, null);
    }

    /**
     * Runs a proxy that controller can pause, resume, query and terminate; returns when it is terminated or the
     * context is closed.
     */
    public static void runSteerable(Socket frontend, Socket backend, Socket capture, ProxyController controller) {
        run(frontend, backend, capture, java.util.Objects.requireNonNull(controller, "controller").proxySide);
    }

    private static void run(Socket frontend, Socket backend, Socket capture, Socket control) {
        Socket[] sockets = {frontend, backend, capture, control};
        int claimed = 0;
        try {
            for (; claimed < sockets.length; claimed++) {
                if (claims(sockets, claimed)) {
                    sockets[claimed].core.begin();
                }
            }
            MemorySegment state = CallScratch.threadCallState();
            while (true) {
                int rc = LibZmq.proxy(state, frontend.core.handle, backend.core.handle, handle(capture), handle(control));
                if (rc == 0) {
                    return;
                }
                int errno = LibZmq.errno(state);
                if (errno == Errno.ETERM) {
                    return;
                }
                if (errno != Errno.EINTR) {
                    throw Socket.error(errno, "Running a proxy");
                }
            }
        } finally {
            for (int i = 0; i < claimed; i++) {
                if (claims(sockets, i)) {
                    sockets[i].core.end();
                }
            }
        }
    }

    /** Whether sockets[i] is claimed by this proxy: once per socket (libzmq lets one socket be frontend and backend). */
    private static boolean claims(Socket[] sockets, int i) {
        if (sockets[i] == null) {
            return false;
        }
        for (int j = 0; j < i; j++) {
            if (sockets[j] == sockets[i]) {
                return false;
            }
        }
        return true;
    }

    private static MemorySegment handle(Socket socket) {
        return socket == null ? MemorySegment.NULL : socket.core.handle;
    }
}
