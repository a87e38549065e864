package net.zmq;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run in a child JVM by {@link DraftTests}: a zero-copy message's free callback that receives on a thread-safe socket
 * while it runs inside such a receive on the same thread (a CLIENT's receive releases the zero-copy frame an inproc
 * SERVER sent it as the receive ends). Exits 0 when the callback ran once and got its frame, and the outer receive got
 * its own; had the two receives shared the thread's native memory, the process would crash or exit otherwise.
 */
public final class FreeCallbackCallsProbe {
    public static void main(String[] args) {
        try (Context context = new Context();
             Socket server = context.socket(SocketType.SERVER); Socket client = context.socket(SocketType.CLIENT);
             Socket innerServer = context.socket(SocketType.SERVER); Socket innerClient = context.socket(SocketType.CLIENT)) {
            int peer = connect(server, client, "inproc://free-callback-outer");
            int innerPeer = connect(innerServer, innerClient, "inproc://free-callback-inner");
            try (Message waiting = new Message("inner frame")) { // for the callback's receive
                waiting.setRoutingId(innerPeer);
                expect(innerServer.send(waiting, SendFlags.NONE), "the inner frame sent");
            }

            AtomicInteger calls = new AtomicInteger();
            AtomicReference<String> inner = new AtomicReference<>();
            MemorySegment data = Arena.global().allocate(100); // more than libzmq keeps inside a zmq_msg_t
            data.fill((byte) 'z');
            try (Message zeroCopy = new Message(data, segment -> {
                calls.incrementAndGet();
                inner.set(innerClient.recvString());
            })) {
                zeroCopy.setRoutingId(peer);
                expect(server.send(zeroCopy, SendFlags.NONE), "the zero-copy frame sent");
            }
            byte[] outer = client.recvBytes(); // releases the zero-copy frame as it ends: the callback runs in it
            expect(outer.length == 100 && outer[0] == 'z' && outer[99] == 'z', "the outer receive's frame");
            expect(calls.get() == 1, "the callback ran " + calls.get() + " times");
            expect("inner frame".equals(inner.get()), "the callback's receive got " + inner.get());
        }
        System.out.println("a free callback's calls kept apart from the call it runs in");
    }

    /** Connects client to server over endpoint; returns the client's routing id, learnt from a first message. */
    private static int connect(Socket server, Socket client, String endpoint) {
        server.bind(endpoint);
        client.connect(endpoint);
        client.send("hello");
        try (Message hello = new Message()) {
            expect(server.recv(hello, RecvFlags.NONE) && "hello".equals(hello.text()), "the first message");
            return hello.routingId();
        }
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            System.out.println("failed: " + what);
            System.exit(2);
        }
    }
}
