package net.zmq;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import net.zmq.internal.LibZmq;

/** CURVE security: key pairs, and setting a socket up as a CURVE server or client. */
public final class Curve {
    private Curve() {
    }

    /** Bytes of a CURVE key (its Z85 text has 40 characters). */
    static final int KEY_BYTES = 32;

    /** A new key pair from libzmq (zmq_curve_keypair, libsodium's random source). */
    public static CurveKeyPair generateKeyPair() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pub = arena.allocate(41);
            MemorySegment sec = arena.allocate(41);
            MemorySegment state = CallScratch.threadCallState();
            if (LibZmq.curveKeypair(state, pub, sec) != 0) {
                throw new ZmqException(LibZmq.errno(state), "Generating a CURVE key pair (this libzmq has no CURVE)");
            }
            return new CurveKeyPair(pub.getString(0), sec.getString(0));
        }
    }

    /** The public key that belongs to secretKey (both Z85). */
    public static String publicKeyOf(String secretKey) {
        check(secretKey, "secret key");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pub = arena.allocate(41);
            MemorySegment state = CallScratch.threadCallState();
            if (LibZmq.curvePublic(state, pub, arena.allocateFrom(secretKey)) != 0) {
                throw new ZmqException(LibZmq.errno(state), "Deriving a CURVE public key");
            }
            return pub.getString(0);
        }
    }

    /**
     * Makes socket a CURVE server with keys (before its first bind or connect: after, this throws
     * {@link IllegalStateException}). Clients are checked by the context's
     * {@link ZapAuthenticator}; create it before the socket accepts connections, as until one is bound libzmq accepts
     * every CURVE client.
     */
    public static void makeServer(Socket socket, CurveKeyPair keys) {
        requireSecret(keys);
        socket.setOption(SocketOption.CURVE_SERVER, true);
        socket.setOption(SocketOption.CURVE_SECRETKEY, Z85.decode(keys.secretKey()));
    }

    /**
     * Makes socket a CURVE client of the server whose public key is serverPublicKey (before its first bind or connect:
     * after, this throws {@link IllegalStateException}).
     */
    public static void makeClient(Socket socket, CurveKeyPair keys, String serverPublicKey) {
        requireSecret(keys);
        check(serverPublicKey, "server public key");
        socket.setOption(SocketOption.CURVE_SERVERKEY, Z85.decode(serverPublicKey));
        socket.setOption(SocketOption.CURVE_PUBLICKEY, Z85.decode(keys.publicKey()));
        socket.setOption(SocketOption.CURVE_SECRETKEY, Z85.decode(keys.secretKey()));
    }

    private static void requireSecret(CurveKeyPair keys) {
        if (keys.secretKey() == null) {
            throw new IllegalArgumentException("this key pair has no secret key (a public certificate): load the secret file");
        }
    }

    static void check(String key, String what) {
        if (key == null || key.length() != 40) {
            throw new IllegalArgumentException("a CURVE " + what + " is 40 characters of Z85, got "
                    + (key == null ? "null" : key.length() + " characters"));
        }
        Z85.decode(key);
    }
}
