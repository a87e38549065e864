package net.zmq.bench;

import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** JeroMQ's ROUTER pair running the same loop (sender on its own thread, reused buffers). */
final class JeroPair {
    private final ZMQ.Socket receiver;
    private final ZMQ.Socket sender;
    // A daemon thread: the JVM must exit when main returns.
    private final java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().daemon().name("jeromq-sender").unstarted(r));

    JeroPair(ZContext ctx) {
        receiver = ctx.createSocket(org.zeromq.SocketType.ROUTER);
        sender = ctx.createSocket(org.zeromq.SocketType.ROUTER);
        for (ZMQ.Socket s : new ZMQ.Socket[] {receiver, sender}) {
            s.setSndHWM(0);
            s.setRcvHWM(0);
            s.setLinger(0);
        }
        receiver.setIdentity(RouterPair.RECEIVER_ID);
        int port = receiver.bindToRandomPort("tcp://127.0.0.1");
        sender.setRouterMandatory(true);
        sender.connect("tcp://127.0.0.1:" + port);
        // Until the handshake is done the receiver's id is unknown (EHOSTUNREACH, thrown by JeroMQ): retry.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                if (sender.sendMore(RouterPair.RECEIVER_ID)) {
                    break;
                }
            } catch (org.zeromq.ZMQException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.onSpinWait();
        }
        sender.send("hello");
        receiver.recv();
        receiver.recv();
    }

    void run(byte[] payload, byte[] buffer, int messages) {
        var done = thread.submit(() -> {
            for (int n = 0; n < messages; n++) {
                sender.sendMore(RouterPair.RECEIVER_ID);
                sender.send(payload, 0);
            }
        });
        byte[] id = new byte[16];
        for (int n = 0; n < messages; n++) {
            receiver.recv(id, 0, id.length, 0);
            receiver.recv(buffer, 0, buffer.length, 0);
        }
        try {
            done.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
