package net.zmq.bench;

import java.time.Duration;
import net.zmq.Context;
import net.zmq.SendFlags;
import net.zmq.Socket;
import net.zmq.SocketOption;
import net.zmq.SocketType;
import net.zmq.ZmqException;

/** Two ROUTER sockets over tcp://127.0.0.1, HWM 0, the sender able to address the receiver (as the C baseline's pair). */
final class RouterPair implements AutoCloseable {
    static final byte[] RECEIVER_ID = "receiver".getBytes();
    final Context context = new Context();
    final Socket receiver;
    final Socket sender;

    RouterPair() {
        receiver = context.socket(SocketType.ROUTER);
        sender = context.socket(SocketType.ROUTER);
        for (Socket s : new Socket[] {receiver, sender}) {
            s.setOption(SocketOption.SNDHWM, 0);
            s.setOption(SocketOption.RCVHWM, 0);
            s.setOption(SocketOption.LINGER, Duration.ZERO);
        }
        receiver.setOption(SocketOption.ROUTING_ID, RECEIVER_ID);
        receiver.bind("tcp://127.0.0.1:*");
        sender.setOption(SocketOption.ROUTER_MANDATORY, true);
        sender.connect(receiver.lastEndpoint());
        // Until the handshake is done the receiver's id is unknown to the sender (EHOSTUNREACH): retry, then drain.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                if (sender.send(RECEIVER_ID, SendFlags.DONT_WAIT_SEND_MORE)) {
                    sender.send("hello".getBytes());
                    break;
                }
            } catch (ZmqException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.onSpinWait();
        }
        receiver.recvBytes();
        receiver.recvBytes();
    }

    @Override
    public void close() {
        context.close();
    }
}
