package net.zmq;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A ZAP handler (RFC 27) for one context: it answers libzmq's authentication requests on {@code inproc://zeromq.zap.01}
 * from a thread of its own. Policy: addresses on the deny list are refused; when the allow list is not empty, only its
 * addresses pass; PLAIN needs a known user name and password; CURVE needs an allowed client public key, unless
 * {@link #allowAnyCurveClient} was called; NULL passes the address checks only. <b>It fails closed:</b> any other
 * mechanism, a malformed request or an error refuses the connection.
 * Configure it from any thread; the changes apply to later handshakes. Close it before its context.
 */
public final class ZapAuthenticator implements AutoCloseable {
    private static final String ENDPOINT = "inproc://zeromq.zap.01";

    private final Set<String> allowed = ConcurrentHashMap.newKeySet();
    private final Set<String> denied = ConcurrentHashMap.newKeySet();
    private final Map<String, String> passwords = new ConcurrentHashMap<>();
    private final Set<String> curveKeys = ConcurrentHashMap.newKeySet();
    private volatile boolean anyCurveClient;
    private volatile boolean stop;
    private final Socket handler;
    private final Thread thread;

    /**
     * Starts answering ZAP requests for context's sockets.
     *
     * @throws ZmqException another ZAP handler is bound in this context (EADDRINUSE)
     */
    public ZapAuthenticator(Context context) {
        handler = context.socket(SocketType.REP);
        handler.setOption(SocketOption.LINGER, Duration.ZERO);
        handler.setOption(SocketOption.RCVTIMEO, Duration.ofMillis(100));
        handler.bind(ENDPOINT);
        thread = Thread.ofPlatform().daemon().name("net-zmq-zap").start(this::serve);
    }

    /** Lets connections from address (an IP address as libzmq reports it) pass; makes the allow list apply. */
    public ZapAuthenticator allow(String address) {
        allowed.add(address);
        return this;
    }

    /** Refuses connections from address. */
    public ZapAuthenticator deny(String address) {
        denied.add(address);
        return this;
    }

    /** Accepts PLAIN user name and password. */
    public ZapAuthenticator addPlainUser(String user, String password) {
        passwords.put(user, password);
        return this;
    }

    /** Accepts the CURVE client with this public key (Z85). */
    public ZapAuthenticator allowCurveKey(String publicKey) {
        Curve.check(publicKey, "client public key");
        curveKeys.add(publicKey);
        return this;
    }

    /** Accepts every CURVE client that completes the handshake (encryption without client authentication). */
    public ZapAuthenticator allowAnyCurveClient() {
        anyCurveClient = true;
        return this;
    }

    private void serve() {
        // The handler socket is used by this thread only, from here until close() joins it.
        while (!stop) {
            MultipartMessage request;
            try {
                request = handler.recvMultipart();
            } catch (ContextTerminatedException | IllegalStateException e) {
                return;
            }
            if (request == null) {
                continue; // the receive timeout: look at the stop flag
            }
            String requestId = request.size() > 1 ? request.getString(1) : "";
            String[] verdict;
            try {
                verdict = decide(request);
            } catch (RuntimeException e) {
                verdict = new String[] {"500", "internal error: " + e.getMessage(), ""};
            }
            try {
                handler.sendMultipart(MultipartMessage.of("1.0", requestId, verdict[0], verdict[1], verdict[2], ""));
            } catch (ContextTerminatedException | IllegalStateException e) {
                return;
            }
        }
    }

    /** The status code, text and user id for a request: [version, id, domain, address, identity, mechanism, credentials...]. */
    private String[] decide(MultipartMessage r) {
        if (r.size() < 6 || !r.getString(0).equals("1.0")) {
            return new String[] {"400", "malformed ZAP request", ""};
        }
        String address = r.getString(3);
        String mechanism = r.getString(5);
        if (denied.contains(address)) {
            return new String[] {"400", "address denied", ""};
        }
        if (!allowed.isEmpty() && !allowed.contains(address)) {
            return new String[] {"400", "address not allowed", ""};
        }
        switch (mechanism) {
            case "NULL":
                return new String[] {"200", "OK", ""};
            case "PLAIN": {
                if (r.size() != 8) {
                    return new String[] {"400", "malformed PLAIN credentials", ""};
                }
                String user = r.getString(6);
                String expected = passwords.get(user);
                boolean ok = expected != null && java.security.MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8), r.get(7));
                return ok ? new String[] {"200", "OK", user} : new String[] {"400", "invalid user name or password", ""};
            }
            case "CURVE": {
                if (r.size() != 7 || r.get(6).length != 32) {
                    return new String[] {"400", "malformed CURVE credentials", ""};
                }
                String key = Z85.encode(r.get(6));
                return anyCurveClient || curveKeys.contains(key) ? new String[] {"200", "OK", key}
                        : new String[] {"400", "unknown CURVE key", ""};
            }
            default:
                return new String[] {"400", "mechanism " + mechanism + " is not supported", ""};
        }
    }

    /** Stops answering (later handshakes that need ZAP fail) and closes the handler socket. */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        handler.close();
    }
}
