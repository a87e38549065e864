package net.zmq;

import java.util.function.Supplier;

/**
 * Run in a child JVM by {@link PatternTests}, as libzmq aborts the process when a connect gives a routing id that a pipe
 * of the socket has already: checks that each such connect is refused instead. Exits 0 once every case was refused
 * (and the refused socket still works); a process that libzmq aborted exits otherwise.
 */
public final class ConnectRoutingIdProbe {
    public static void main(String[] args) {
        try (Context context = new Context(); Socket router = context.socket(SocketType.ROUTER);
             Socket peer = context.socket(SocketType.DEALER); Socket stream = context.socket(SocketType.STREAM);
             Socket a = context.socket(SocketType.ROUTER); Socket b = context.socket(SocketType.ROUTER);
             Socket immediate = context.socket(SocketType.ROUTER); Socket peerX = context.socket(SocketType.DEALER)) {
            a.bind("tcp://127.0.0.1:*");
            b.bind("tcp://127.0.0.1:*");

            // Two connects of one ROUTER with the same id.
            router.setOption(SocketOption.CONNECT_ROUTING_ID, "A".getBytes());
            router.connect(a.lastEndpoint());
            router.setOption(SocketOption.CONNECT_ROUTING_ID, "A".getBytes());
            expectRefused("a second connect with A", () -> connect(router, b.lastEndpoint()));

            if (net.zmq.internal.LibZmq.hasDraftApi()) { // only the draft API says what ids peers that connected in have
                // A peer that connected in with the id first.
                connectIn(peer, router, "P");
                router.setOption(SocketOption.CONNECT_ROUTING_ID, "P".getBytes());
                expectRefused("a connect with the id of a peer that connected in", () -> connect(router, b.lastEndpoint()));

                // With IMMEDIATE, a tcp connect leaves the id pending in libzmq, and the next connect without it gives it.
                immediate.setOption(SocketOption.IMMEDIATE, true);
                immediate.setOption(SocketOption.CONNECT_ROUTING_ID, "X".getBytes());
                immediate.connect(a.lastEndpoint());
                connectIn(peerX, immediate, "X");
                immediate.setOption(SocketOption.IMMEDIATE, false);
                expectRefused("a connect giving the id left pending by one with IMMEDIATE", () -> connect(immediate, b.lastEndpoint()));
            }

            // Refused, the socket still works: another id connects.
            router.setOption(SocketOption.CONNECT_ROUTING_ID, "B".getBytes());
            router.connect(b.lastEndpoint());

            // STREAM asserts alike.
            stream.setOption(SocketOption.CONNECT_ROUTING_ID, "S".getBytes());
            stream.connect(a.lastEndpoint());
            stream.setOption(SocketOption.CONNECT_ROUTING_ID, "S".getBytes());
            expectRefused("a STREAM's second connect with S", () -> connect(stream, b.lastEndpoint()));
        }
        System.out.println("duplicate connect routing ids refused");
    }

    /** Connects peer, with routing id id, in to router, once router took its message (libzmq then knows the id). */
    private static void connectIn(Socket peer, Socket router, String id) {
        router.bind("tcp://127.0.0.1:*");
        peer.setOption(SocketOption.ROUTING_ID, id.getBytes());
        peer.connect(router.lastEndpoint());
        peer.send("hello");
        expect(id.equals(router.recvString()) && "hello".equals(router.recvString()), "peer " + id + "'s message");
    }

    private static String connect(Socket socket, String endpoint) {
        socket.connect(endpoint);
        return "connected";
    }

    private static void expectRefused(String what, Supplier<String> call) {
        try {
            call.get();
        } catch (IllegalStateException e) {
            expect(e.getMessage().contains("(CONNECT_ROUTING_ID) is already a peer's"), what + ": " + e.getMessage());
            return;
        }
        expect(false, what + " was not refused");
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            System.out.println("failed: " + what);
            System.exit(1);
        }
    }
}
