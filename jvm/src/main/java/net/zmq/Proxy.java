package net.zmq;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import net.zmq.internal.Errno;
import net.zmq.internal.LibZmq;

/**
 * Forwards messages between a frontend and a backend socket (zmq_proxy), optionally copying them to a capture socket,
 * on the calling thread until the context is closed or a {@link ProxyController} terminates it. The proxy holds the
 * sockets' claims while it runs: other threads must not call them. It runs inside libzmq for the proxy's whole life:
 * run it on a platform thread (a virtual thread would pin its carrier all that time). A signal that lands while
 * libzmq's proxy waits makes it return (EINTR); it is run again, a steerable one that was paused staying paused. A
 * signal that lands while it waits to send at the high-water mark loses the frame it held (libzmq 4.3's proxy).
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
        run(frontend, backend, capture, java.util.Objects.requireNonNull(controller, "controller"));
    }

    private static void run(Socket frontend, Socket backend, Socket capture, ProxyController controller) {
        Socket control = controller == null ? null : controller.proxySide;
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
                // A signal interrupted libzmq's wait. Made again, the proxy starts afresh: forwarding, its counters at
                // zero. A pause in force must stay in force.
                if (controller != null && controller.paused && !waitOutThePause(control, capture)) {
                    return;
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

    /**
     * A steerable proxy paused when a signal ended libzmq's proxy: answers the controller's commands as libzmq's paused
     * proxy would, forwarding nothing, until RESUME (returns true: run the proxy again) or TERMINATE or the context's
     * close (false). The proxy's claim on the control socket stays held.
     */
    private static boolean waitOutThePause(Socket control, Socket capture) {
        try {
            while (true) {
                byte[] command = control.recvBytesHeld(0);
                if (command != null && capture != null) {
                    capture.sendHeld(command, SendFlags.NONE); // as libzmq's proxy copies its commands there
                }
                switch (command == null ? "" : new String(command, StandardCharsets.US_ASCII)) {
                    case "RESUME" -> {
                        return true;
                    }
                    case "TERMINATE" -> {
                        return false;
                    }
                    case "STATISTICS" -> { // nothing forwarded since libzmq's proxy ended: eight counters at zero
                        byte[] zero = new byte[Long.BYTES];
                        for (int i = 0; i < 8; i++) {
                            control.sendHeld(zero, i < 7 ? SendFlags.SEND_MORE : SendFlags.NONE);
                        }
                    }
                    default -> {
                        // PAUSE: already paused
                    }
                }
            }
        } catch (ContextTerminatedException e) {
            return false;
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
