package net.zmq;

import java.time.Duration;

/**
 * The ZAP endpoint of one context ({@code inproc://zeromq.zap.01}), bound when the first {@link ZapAuthenticator} of
 * the context starts and kept until the context closes. It answers each request with the decision of the
 * authenticator attached at that moment, and refuses every request while none is attached. Unbinding it when an
 * authenticator closes would fail open: with nothing bound there, libzmq 4.3 lets CURVE clients, and NULL peers of
 * sockets with a ZAP domain, in without asking.
 */
final class ZapHandler {
    static final String ENDPOINT = "inproc://zeromq.zap.01";
    private static final System.Logger LOG = System.getLogger(ZapHandler.class.getName());

    /** A ROUTER, so that no failed reply can leave it in a state that refuses the next request (as a REP would). */
    private final Socket socket;
    /** The authenticator that decides, or null (refuse all); changed and used under this object's lock, so once
     * {@link #detach} returns, the detached authenticator decides nothing more. */
    private ZapAuthenticator attached;
    /** Set as the serving thread ends (the context shut down or closed, or an Error): no request is answered after. */
    private volatile boolean stopped;

    /** @throws ZmqException something else is bound to the ZAP endpoint of this context (EADDRINUSE) */
    ZapHandler(Context context) {
        socket = new Socket(context, SocketType.ROUTER, false); // the thread must not keep the context reachable
        try {
            socket.setOption(SocketOption.LINGER, Duration.ZERO);
            socket.bind(ENDPOINT);
        } catch (RuntimeException e) {
            socket.close();
            throw e;
        }
        Thread.ofPlatform().daemon().name("net-zmq-zap").start(this::serve);
    }

    /** @throws IllegalStateException another authenticator is attached */
    synchronized void attach(ZapAuthenticator authenticator) {
        if (stopped) {
            throw new IllegalStateException("this context's ZAP handler has stopped (its thread failed: see the log); "
                    + "authenticate on a new context");
        }
        if (attached != null) {
            throw new IllegalStateException("another ZapAuthenticator serves this context: close it first (one per "
                    + "context; one never closed serves it until the context closes, even once unreachable)");
        }
        attached = authenticator;
    }

    synchronized void detach(ZapAuthenticator authenticator) {
        if (attached == authenticator) {
            attached = null;
        }
    }

    private synchronized ZapAuthenticator.Verdict decide(MultipartMessage request) {
        return attached == null ? ZapAuthenticator.Verdict.refuse("no ZapAuthenticator is attached to this context")
                : attached.decide(request);
    }

    private void serve() {
        // The socket is used by this thread only. The context's close ends the receive (ETERM, or the socket closed).
        try {
            while (true) {
                try {
                    MultipartMessage envelope = socket.recvMultipart();
                    if (envelope != null) {
                        answer(envelope);
                    }
                } catch (ContextTerminatedException e) {
                    return;
                } catch (RuntimeException e) {
                    if (socket.isClosed()) {
                        return;
                    }
                    // Keep serving: a handler that stopped would leave every later handshake waiting for an answer.
                    LOG.log(System.Logger.Level.ERROR, "the ZAP handler could not answer a request; it goes on", e);
                }
            }
        } catch (Error e) {
            // The uncaught Error's stack trace follows from the thread's handler.
            LOG.log(System.Logger.Level.ERROR, "the ZAP handler's thread failed (" + e + "): this context's handshakes "
                    + "that ask it will time out, refused");
            throw e;
        } finally {
            stopped = true;
        }
    }

    /** Answers one request: [peer id, empty, version, request id, domain, address, identity, mechanism, credentials...]. */
    private void answer(MultipartMessage envelope) {
        int bodyAt = 0;
        while (bodyAt < envelope.size() && envelope.get(bodyAt).length > 0) {
            bodyAt++; // the routing ids, up to the empty delimiter
        }
        if (bodyAt == envelope.size()) {
            return; // no delimiter: not from a REQ (libzmq's ZAP client is one); nothing to answer
        }
        MultipartMessage request = new MultipartMessage();
        for (int i = bodyAt + 1; i < envelope.size(); i++) {
            request.add(envelope.get(i));
        }
        String requestId = request.size() > 1 ? request.getString(1) : "";
        ZapAuthenticator.Verdict verdict;
        try {
            verdict = decide(request);
        } catch (RuntimeException e) {
            verdict = new ZapAuthenticator.Verdict("500", "internal error: " + e.getMessage(), "");
        }
        MultipartMessage reply = new MultipartMessage();
        for (int i = 0; i <= bodyAt; i++) {
            reply.add(envelope.get(i)); // the routing ids and the delimiter
        }
        for (String part : new String[] {"1.0", requestId, verdict.status(), verdict.text(), verdict.userId(), ""}) {
            reply.add(part);
        }
        socket.sendMultipart(reply);
    }
}
