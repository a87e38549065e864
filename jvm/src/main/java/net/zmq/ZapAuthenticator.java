package net.zmq;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A ZAP handler (RFC 27) for one context: it decides libzmq's authentication requests on {@code inproc://zeromq.zap.01}
 * from a thread of its own. Policy: addresses on the deny list are refused; when the allow list is not empty, only its
 * addresses pass; PLAIN needs a known user name and password; CURVE needs an allowed client public key, unless
 * {@link #allowAnyCurveClient} was called; NULL passes the address checks only. libzmq asks about a NULL connection
 * only when its socket has a {@link SocketOption#ZAP_DOMAIN}: without one, the address lists do not guard that socket.
 * Configure it from any thread; the changes apply to later handshakes.
 *
 * <p><b>It fails closed:</b> any other mechanism, a malformed request or an error refuses the connection, and once it
 * is closed the context keeps refusing every request until another authenticator starts or the context closes (the
 * ZAP endpoint stays bound: with nothing bound there libzmq would let CURVE clients in unchecked). For the same reason,
 * create it before the server sockets it guards accept connections: until a ZAP handler is bound, libzmq accepts
 * every CURVE client. One authenticator serves a context at a time.
 */
public final class ZapAuthenticator implements AutoCloseable {
    /** IPv4 as four decimal numbers 0 to 255 without leading zeros: the shorthands inet_aton also reads ("127.1",
     * "010.0.0.1") name other addresses than they seem to. */
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

    private final Set<String> allowed = ConcurrentHashMap.newKeySet();
    private final Set<String> denied = ConcurrentHashMap.newKeySet();
    private final Map<String, String> passwords = new ConcurrentHashMap<>();
    private final Set<String> curveKeys = ConcurrentHashMap.newKeySet();
    private volatile boolean anyCurveClient;
    private final ZapHandler handler;

    /** A ZAP reply's status code, status text and user id. */
    record Verdict(String status, String text, String userId) {
        static Verdict refuse(String why) {
            return new Verdict("400", why, "");
        }

        static Verdict accept(String userId) {
            return new Verdict("200", "OK", userId);
        }
    }

    /**
     * Starts deciding ZAP requests for context's sockets.
     *
     * @throws IllegalStateException another ZapAuthenticator serves this context, or the context is closed or was shut
     *                               down
     * @throws ZmqException          a ZAP handler of another kind is bound in this context (EADDRINUSE)
     */
    public ZapAuthenticator(Context context) {
        handler = context.zapHandler();
        handler.attach(this);
    }

    /**
     * Lets connections from address pass; makes the allow list apply (to CURVE and PLAIN sockets, and to NULL sockets
     * with a {@link SocketOption#ZAP_DOMAIN}).
     *
     * @param address an IP address: IPv4 as four decimal numbers ("192.168.1.5"), or IPv6 text ("::1"); an IPv4 peer
     *                of a socket with {@link SocketOption#IPV6}, which libzmq reports as "::ffff:192.168.1.5", matches
     *                its IPv4 address
     * @throws IllegalArgumentException address is not such an address (host names are not resolved)
     */
    public ZapAuthenticator allow(String address) {
        allowed.add(canonical(address));
        return this;
    }

    /**
     * Refuses connections from address (an IP address, to the sockets as for {@link #allow}).
     *
     * @throws IllegalArgumentException address is not an IP address
     */
    public ZapAuthenticator deny(String address) {
        denied.add(canonical(address));
        return this;
    }

    /** An allow or deny entry in the form {@link #peerAddress} gives. */
    private static String canonical(String address) {
        // IPv4, or IPv6 text whose dotted tail (::ffff:10.0.0.1) is written as IPv4 must be
        int colon = address.lastIndexOf(':');
        String dotted = colon >= 0 ? address.substring(colon + 1) : address;
        boolean wellFormed = colon >= 0 && dotted.indexOf('.') < 0 || IPV4.matcher(dotted).matches();
        String canonical = wellFormed ? literal(address) : null;
        if (canonical != null && colon >= 0 && dotted.indexOf('.') >= 0 && !dotted.startsWith("0.")
                && InetAddress.ofLiteral(canonical) instanceof Inet6Address v6 && v6.isIPv4CompatibleAddress()) {
            throw new IllegalArgumentException("'" + address + "' is a deprecated IPv4-compatible IPv6 address, which libzmq "
                    + "never reports for a peer: write '" + dotted + "', which matches that IPv4 peer however libzmq spells it");
        }
        if (canonical == null) {
            throw new IllegalArgumentException("'" + address + "' is not an IP address: write IPv4 as four decimal numbers 0 to 255 "
                    + "without leading zeros (for example 192.168.1.5; a shorthand such as 127.1 names another address than it seems) "
                    + "or IPv6 as text (for example ::1); host names are not resolved");
        }
        return canonical;
    }

    /** A peer address as libzmq reports it, in canonical form (an IPv4-mapped IPv6 address as IPv4); as given when it is not an IP address. */
    private static String peerAddress(String address) {
        String canonical = address.isEmpty() ? null : literal(address);
        return canonical == null ? address : canonical;
    }

    /**
     * The canonical text of an IP literal (no name lookup), or null when text is not one. A scope ("%eth0", which
     * libzmq reports for link-local peers) is left out: an entry names the address whatever the interface.
     */
    private static String literal(String text) {
        int scope = text.indexOf('%');
        try {
            return InetAddress.ofLiteral(scope < 0 ? text : text.substring(0, scope)).getHostAddress();
        } catch (IllegalArgumentException e) {
            return null;
        }
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

    /** The decision on a request: [version, id, domain, address, identity, mechanism, credentials...] (under the handler's lock). */
    Verdict decide(MultipartMessage r) {
        if (r.size() < 6 || !r.getString(0).equals("1.0")) {
            return Verdict.refuse("malformed ZAP request");
        }
        String address = peerAddress(r.getString(3));
        String mechanism = r.getString(5);
        if (denied.contains(address)) {
            return Verdict.refuse("address denied");
        }
        if (!allowed.isEmpty() && !allowed.contains(address)) {
            return Verdict.refuse("address not allowed");
        }
        switch (mechanism) {
            case "NULL":
                return Verdict.accept("");
            case "PLAIN": {
                if (r.size() != 8) {
                    return Verdict.refuse("malformed PLAIN credentials");
                }
                String user = r.getString(6);
                String expected = passwords.get(user);
                boolean ok = expected != null && java.security.MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8), r.get(7));
                return ok ? Verdict.accept(user) : Verdict.refuse("invalid user name or password");
            }
            case "CURVE": {
                if (r.size() != 7 || r.get(6).length != 32) {
                    return Verdict.refuse("malformed CURVE credentials");
                }
                String key = Z85.encode(r.get(6));
                return anyCurveClient || curveKeys.contains(key) ? Verdict.accept(key) : Verdict.refuse("unknown CURVE key");
            }
            default:
                return Verdict.refuse("mechanism " + mechanism + " is not supported");
        }
    }

    /**
     * Stops deciding: from now on the context refuses every ZAP request until another authenticator starts. Idempotent.
     */
    @Override
    public void close() {
        handler.detach(this);
    }
}
