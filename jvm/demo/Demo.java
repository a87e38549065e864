import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.zmq.Context;
import net.zmq.Curve;
import net.zmq.CurveKeyPair;
import net.zmq.ZapAuthenticator;
import net.zmq.Message;
import net.zmq.MultipartMessage;
import net.zmq.RecvFlags;
import net.zmq.SendFlags;
import net.zmq.Socket;
import net.zmq.SocketOption;
import net.zmq.SocketType;

/** Runs from the JAR alone: REQ/REP, CURVE with ZAP, DEALER/ROUTER, a draft SERVER/CLIENT and a zero-copy send. */
public final class Demo {
    public static void main(String[] args) throws Exception {
        System.out.println("libzmq " + Context.version() + " (curve: " + Context.has("curve") + ", draft: " + Context.has("draft") + ")");
        try (Context context = new Context()) {
            reqRep(context);
            curveWithZap(context);
            dealerRouter(context);
            serverClient(context);
            zeroCopy(context);
        }
        System.out.println("demo: all steps passed");
    }

    private static Socket timed(Socket socket) {
        socket.setOption(SocketOption.RCVTIMEO, Duration.ofSeconds(5));
        return socket;
    }

    static void reqRep(Context context) {
        try (Socket rep = timed(context.socket(SocketType.REP)); Socket req = timed(context.socket(SocketType.REQ))) {
            rep.bind("tcp://127.0.0.1:*");
            req.connect(rep.lastEndpoint());
            req.send("hello");
            rep.send(rep.recvString() + ", world");
            check("REQ/REP", "hello, world", req.recvString());
        }
    }

    static void curveWithZap(Context context) {
        CurveKeyPair server = Curve.generateKeyPair();
        CurveKeyPair client = Curve.generateKeyPair();
        try (ZapAuthenticator zap = new ZapAuthenticator(context).allowCurveKey(client.publicKey());
             Socket rep = timed(context.socket(SocketType.REP)); Socket req = timed(context.socket(SocketType.REQ))) {
            Curve.makeServer(rep, server);
            rep.bind("tcp://127.0.0.1:*");
            Curve.makeClient(req, client, server.publicKey());
            req.connect(rep.lastEndpoint());
            req.send("encrypted hello");
            check("CURVE + ZAP", "encrypted hello", rep.recvString());
        }
    }

    static void dealerRouter(Context context) {
        try (Socket router = timed(context.socket(SocketType.ROUTER)); Socket dealer = timed(context.socket(SocketType.DEALER))) {
            router.bind("tcp://127.0.0.1:*");
            dealer.setOption(SocketOption.ROUTING_ID, "dealer-1".getBytes());
            dealer.connect(router.lastEndpoint());
            dealer.send("job");
            MultipartMessage request = router.recvMultipart();
            router.sendMultipart(MultipartMessage.of(request.get(0), ("done: " + request.getString(1)).getBytes()));
            check("DEALER/ROUTER", "done: job", dealer.recvString());
        }
    }

    static void serverClient(Context context) {
        try (Socket server = timed(context.socket(SocketType.SERVER)); Socket client = timed(context.socket(SocketType.CLIENT));
             Message message = new Message()) {
            server.bind("tcp://127.0.0.1:*");
            client.connect(server.lastEndpoint());
            client.send("ping");
            server.recv(message, RecvFlags.NONE);
            int peer = message.routingId();
            try (Message reply = new Message("pong")) {
                reply.setRoutingId(peer);
                server.send(reply, SendFlags.NONE);
            }
            check("SERVER/CLIENT (draft)", "pong", client.recvString());
        }
    }

    static void zeroCopy(Context context) throws InterruptedException {
        CountDownLatch freed = new CountDownLatch(1);
        try (Socket pull = timed(context.socket(SocketType.PULL)); Socket push = context.socket(SocketType.PUSH);
             Arena arena = Arena.ofShared()) {
            pull.bind("tcp://127.0.0.1:*");
            push.connect(pull.lastEndpoint());
            MemorySegment data = arena.allocateFrom("sent without a copy");
            data = data.asSlice(0, data.byteSize() - 1);
            try (Message message = new Message(data, segment -> freed.countDown())) {
                push.send(message, SendFlags.NONE);
            }
            check("zero-copy", "sent without a copy", pull.recvString());
            if (!freed.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("zero-copy: libzmq never released the buffer");
            }
            System.out.println("zero-copy: buffer released by libzmq");
        }
    }

    static void check(String step, String expected, String actual) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException(step + ": expected '" + expected + "', got '" + actual + "'");
        }
        System.out.println(step + ": " + actual);
    }
}
