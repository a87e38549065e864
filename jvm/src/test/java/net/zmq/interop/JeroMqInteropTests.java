package net.zmq.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.zmq.Context;
import net.zmq.MultipartMessage;
import net.zmq.Socket;
import net.zmq.SocketType;
import net.zmq.support.Zmq;
import org.junit.jupiter.api.Test;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** Net.Zmq (libzmq through FFM) and JeroMQ (pure Java) talk ZMTP to each other over tcp, both ways. */
class JeroMqInteropTests {
    @Test
    void jeromqRouterServesNetZmqDealer() {
        try (ZContext jctx = new ZContext(); Context context = new Context()) {
            ZMQ.Socket router = jctx.createSocket(org.zeromq.SocketType.ROUTER);
            router.setReceiveTimeOut((int) Zmq.WAIT.toMillis());
            int port = router.bindToRandomPort("tcp://127.0.0.1");
            try (Socket dealer = Zmq.socket(context, SocketType.DEALER)) {
                dealer.connect("tcp://127.0.0.1:" + port);
                dealer.sendMultipart(MultipartMessage.of("part 1", "part 2"));
                byte[] id = router.recv();
                assertEquals("part 1", router.recvStr());
                assertEquals("part 2", router.recvStr());
                router.sendMore(id);
                router.send("from jeromq");
                assertEquals("from jeromq", dealer.recvString());
            }
        }
    }

    @Test
    void netZmqRouterServesJeromqDealer() {
        try (ZContext jctx = new ZContext(); Context context = new Context();
             Socket router = Zmq.socket(context, SocketType.ROUTER)) {
            router.bind("tcp://127.0.0.1:*");
            ZMQ.Socket dealer = jctx.createSocket(org.zeromq.SocketType.DEALER);
            dealer.setReceiveTimeOut((int) Zmq.WAIT.toMillis());
            dealer.connect(router.lastEndpoint());
            dealer.send("from jeromq");
            MultipartMessage m = router.recvMultipart();
            assertEquals("from jeromq", m.getString(1));
            router.sendMultipart(MultipartMessage.of(m.get(0), "from net.zmq".getBytes()));
            assertEquals("from net.zmq", dealer.recvStr());
        }
    }

    @Test
    void pubSubAcrossStacks() throws Exception {
        try (ZContext jctx = new ZContext(); Context context = new Context();
             Socket pub = Zmq.socket(context, SocketType.PUB)) {
            pub.bind("tcp://127.0.0.1:*");
            ZMQ.Socket sub = jctx.createSocket(org.zeromq.SocketType.SUB);
            sub.subscribe("t".getBytes());
            sub.setReceiveTimeOut(10);
            sub.connect(pub.lastEndpoint());
            String got = null;
            long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
            while (got == null && System.nanoTime() < deadline) {
                pub.send("topic data"); // republished until the subscription has arrived; the loop ends on receipt
                got = sub.recvStr();
            }
            assertEquals("topic data", got);
        }
    }
}
