package net.zmq;

import java.time.Duration;

/**
 * A socket option with its Java type, for {@link Socket#setOption} and {@link Socket#getOption}: integers as
 * {@code Integer}, 64-bit values as {@code Long}, flags as {@code Boolean}, intervals as {@link Duration}
 * (whole milliseconds, a fraction of one rounded up), identities and keys as {@code byte[]} (a CURVE key's 32 bytes;
 * {@link Z85} converts its 40-character text), text as {@code String}. Read-only options throw
 * {@link UnsupportedOperationException} on set.
 *
 * <p>For {@link #LINGER}, {@link #RCVTIMEO}, {@link #SNDTIMEO} and {@link #RECONNECT_IVL}, {@code null} or a negative
 * duration sets libzmq's -1 (forever; for RECONNECT_IVL, never reconnect) and reads back as {@code null}. The other
 * intervals take 0 or more (libzmq refuses -1 for them: their 0 means none, or libzmq's default; see
 * zmq_setsockopt); {@code null} or a negative duration throws {@link IllegalArgumentException}.
 *
 * @param <T> the value's type
 */
public final class SocketOption<T> {
    enum Kind { INT, BOOL, LONG, BYTES, STRING, DURATION, KEY }

    final String name;
    final int id;
    final Kind kind;
    final boolean writable;
    final boolean readable;
    /**
     * Whether the option chooses or configures the security mechanism: libzmq copies it into each endpoint as that
     * endpoint is bound or connected, so one set afterwards leaves those endpoints as they were (see
     * {@link Socket#setOption}).
     */
    final boolean security;

    private SocketOption(String name, int id, Kind kind, boolean readable, boolean writable) {
        this.name = name;
        this.id = id;
        this.kind = kind;
        this.readable = readable;
        this.writable = writable;
        this.security = name.startsWith("PLAIN_") || name.startsWith("CURVE_") || name.startsWith("ZAP_");
    }

    /** For an interval: whether libzmq takes -1 (null or a negative duration) for it. */
    boolean takesForever() {
        return this == LINGER || this == RCVTIMEO || this == SNDTIMEO || this == RECONNECT_IVL;
    }

    private static <T> SocketOption<T> rw(String name, int id, Kind kind) {
        return new SocketOption<>(name, id, kind, true, true);
    }

    private static <T> SocketOption<T> ro(String name, int id, Kind kind) {
        return new SocketOption<>(name, id, kind, true, false);
    }

    private static <T> SocketOption<T> wo(String name, int id, Kind kind) {
        return new SocketOption<>(name, id, kind, false, true);
    }

    public static final SocketOption<Long> AFFINITY = rw("AFFINITY", 4, Kind.LONG);
    public static final SocketOption<byte[]> ROUTING_ID = rw("ROUTING_ID", 5, Kind.BYTES);
    public static final SocketOption<byte[]> SUBSCRIBE = wo("SUBSCRIBE", 6, Kind.BYTES);
    public static final SocketOption<byte[]> UNSUBSCRIBE = wo("UNSUBSCRIBE", 7, Kind.BYTES);
    public static final SocketOption<Integer> RATE = rw("RATE", 8, Kind.INT);
    public static final SocketOption<Duration> RECOVERY_IVL = rw("RECOVERY_IVL", 9, Kind.DURATION);
    public static final SocketOption<Integer> SNDBUF = rw("SNDBUF", 11, Kind.INT);
    public static final SocketOption<Integer> RCVBUF = rw("RCVBUF", 12, Kind.INT);
    public static final SocketOption<Boolean> RCVMORE = ro("RCVMORE", 13, Kind.BOOL);
    /** The socket's notification file descriptor (edge-triggered; check {@link #EVENTS} after it signals). */
    public static final SocketOption<Integer> FD = ro("FD", 14, Kind.INT);
    /** {@link Poller#READABLE} and/or {@link Poller#WRITABLE}, as bits. */
    public static final SocketOption<Integer> EVENTS = ro("EVENTS", 15, Kind.INT);
    public static final SocketOption<Integer> TYPE = ro("TYPE", 16, Kind.INT);
    /** How long close waits to send queued messages; sockets start with their context's default linger (1 s). */
    public static final SocketOption<Duration> LINGER = rw("LINGER", 17, Kind.DURATION);
    public static final SocketOption<Duration> RECONNECT_IVL = rw("RECONNECT_IVL", 18, Kind.DURATION);
    public static final SocketOption<Integer> BACKLOG = rw("BACKLOG", 19, Kind.INT);
    public static final SocketOption<Duration> RECONNECT_IVL_MAX = rw("RECONNECT_IVL_MAX", 21, Kind.DURATION);
    public static final SocketOption<Long> MAXMSGSIZE = rw("MAXMSGSIZE", 22, Kind.LONG);
    public static final SocketOption<Integer> SNDHWM = rw("SNDHWM", 23, Kind.INT);
    public static final SocketOption<Integer> RCVHWM = rw("RCVHWM", 24, Kind.INT);
    public static final SocketOption<Integer> MULTICAST_HOPS = rw("MULTICAST_HOPS", 25, Kind.INT);
    /** How long a blocking receive waits before it returns -1 / false / null (EAGAIN); null = forever. */
    public static final SocketOption<Duration> RCVTIMEO = rw("RCVTIMEO", 27, Kind.DURATION);
    /** How long a blocking send waits before it returns false (EAGAIN); null = forever. */
    public static final SocketOption<Duration> SNDTIMEO = rw("SNDTIMEO", 28, Kind.DURATION);
    public static final SocketOption<String> LAST_ENDPOINT = ro("LAST_ENDPOINT", 32, Kind.STRING);
    public static final SocketOption<Boolean> ROUTER_MANDATORY = wo("ROUTER_MANDATORY", 33, Kind.BOOL);
    public static final SocketOption<Integer> TCP_KEEPALIVE = rw("TCP_KEEPALIVE", 34, Kind.INT);
    public static final SocketOption<Boolean> IMMEDIATE = rw("IMMEDIATE", 39, Kind.BOOL);
    public static final SocketOption<Boolean> XPUB_VERBOSE = wo("XPUB_VERBOSE", 40, Kind.BOOL);
    public static final SocketOption<Boolean> IPV6 = rw("IPV6", 42, Kind.BOOL);
    /** 0 NULL, 1 PLAIN, 2 CURVE, 3 GSSAPI. */
    public static final SocketOption<Integer> MECHANISM = ro("MECHANISM", 43, Kind.INT);
    public static final SocketOption<Boolean> PLAIN_SERVER = rw("PLAIN_SERVER", 44, Kind.BOOL);
    public static final SocketOption<String> PLAIN_USERNAME = rw("PLAIN_USERNAME", 45, Kind.STRING);
    public static final SocketOption<String> PLAIN_PASSWORD = rw("PLAIN_PASSWORD", 46, Kind.STRING);
    public static final SocketOption<Boolean> CURVE_SERVER = rw("CURVE_SERVER", 47, Kind.BOOL);
    /** A 32-byte CURVE key (see {@link Curve} and {@link Z85} for the text form). */
    public static final SocketOption<byte[]> CURVE_PUBLICKEY = rw("CURVE_PUBLICKEY", 48, Kind.KEY);
    /** A 32-byte CURVE key. */
    public static final SocketOption<byte[]> CURVE_SECRETKEY = rw("CURVE_SECRETKEY", 49, Kind.KEY);
    /** The server's 32-byte public CURVE key, set on a client. */
    public static final SocketOption<byte[]> CURVE_SERVERKEY = rw("CURVE_SERVERKEY", 50, Kind.KEY);
    public static final SocketOption<Boolean> PROBE_ROUTER = wo("PROBE_ROUTER", 51, Kind.BOOL);
    public static final SocketOption<Boolean> REQ_CORRELATE = wo("REQ_CORRELATE", 52, Kind.BOOL);
    public static final SocketOption<Boolean> REQ_RELAXED = wo("REQ_RELAXED", 53, Kind.BOOL);
    public static final SocketOption<Boolean> CONFLATE = wo("CONFLATE", 54, Kind.BOOL);
    public static final SocketOption<String> ZAP_DOMAIN = rw("ZAP_DOMAIN", 55, Kind.STRING);
    public static final SocketOption<Boolean> ROUTER_HANDOVER = wo("ROUTER_HANDOVER", 56, Kind.BOOL);
    public static final SocketOption<Integer> TOS = rw("TOS", 57, Kind.INT);
    /**
     * The routing id the next connect of a ROUTER or STREAM gives its peer (with IMMEDIATE set, only a connect over
     * inproc takes it). An id a peer of the socket has already (one this socket's connects gave, or, on a ROUTER, one a
     * peer that connected in has, which only a libzmq with the draft API can tell, and only once libzmq has taken that
     * peer in) makes that connect throw {@link IllegalStateException}: libzmq would abort the process.
     */
    public static final SocketOption<byte[]> CONNECT_ROUTING_ID = wo("CONNECT_ROUTING_ID", 61, Kind.BYTES);
    public static final SocketOption<Duration> HANDSHAKE_IVL = rw("HANDSHAKE_IVL", 66, Kind.DURATION);
    public static final SocketOption<Boolean> XPUB_NODROP = wo("XPUB_NODROP", 69, Kind.BOOL);
    public static final SocketOption<Boolean> XPUB_MANUAL = wo("XPUB_MANUAL", 71, Kind.BOOL);
    public static final SocketOption<Boolean> INVERT_MATCHING = rw("INVERT_MATCHING", 74, Kind.BOOL);
    public static final SocketOption<Duration> HEARTBEAT_IVL = rw("HEARTBEAT_IVL", 75, Kind.DURATION);
    /** libzmq keeps it in tenths of a second: rounded up to a multiple of 100 ms (0: the peer's own timeout). */
    public static final SocketOption<Duration> HEARTBEAT_TTL = rw("HEARTBEAT_TTL", 76, Kind.DURATION);
    public static final SocketOption<Duration> HEARTBEAT_TIMEOUT = rw("HEARTBEAT_TIMEOUT", 77, Kind.DURATION);
    public static final SocketOption<Duration> CONNECT_TIMEOUT = rw("CONNECT_TIMEOUT", 79, Kind.DURATION);
    public static final SocketOption<Boolean> THREAD_SAFE = ro("THREAD_SAFE", 81, Kind.BOOL);
    public static final SocketOption<Boolean> ZAP_ENFORCE_DOMAIN = rw("ZAP_ENFORCE_DOMAIN", 93, Kind.BOOL);

    /** The option's name without the ZMQ_ prefix. */
    public String name() {
        return name;
    }

    /** libzmq's number for the option (ZMQ_LINGER = 17, …). */
    public int id() {
        return id;
    }

    @Override
    public String toString() {
        return name;
    }
}
