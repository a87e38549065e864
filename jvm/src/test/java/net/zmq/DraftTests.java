package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.zmq.support.Zmq;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Draft socket types on the bundled libzmq. */
class DraftTests {
    private final Context context = new Context();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void bundledLibzmqHasDraftsAndCurve() {
        assertTrue(Context.has("draft"));
        assertTrue(Context.has("curve"));
    }

    @Test
    void serverRepliesToClientByRoutingId() {
        try (Socket server = Zmq.socket(context, SocketType.SERVER); Socket client = Zmq.socket(context, SocketType.CLIENT);
             Message in = new Message()) {
            Zmq.connect(server, client, "tcp");
            client.send("hi");
            assertTrue(server.recv(in, RecvFlags.NONE));
            int peer = in.routingId();
            assertNotEquals(0, peer);
            try (Message reply = new Message("hello " + in.text())) {
                reply.setRoutingId(peer);
                assertTrue(server.send(reply, SendFlags.NONE));
            }
            assertEquals("hello hi", client.recvString());
        }
    }

    @Test
    void radioDishDeliversJoinedGroupsOnly() {
        try (Socket radio = Zmq.socket(context, SocketType.RADIO); Socket dish = Zmq.socket(context, SocketType.DISH);
             Message in = new Message()) {
            dish.join("news");
            Zmq.connect(radio, dish, "inproc");
            for (String group : new String[] {"sport", "news"}) {
                try (Message m = new Message(group + " item")) {
                    m.setGroup(group);
                    radio.send(m, SendFlags.NONE);
                }
            }
            assertTrue(dish.recv(in, RecvFlags.NONE));
            assertEquals("news", in.group());
            assertEquals("news item", in.text());
        }
    }

    @Test
    void scatterGatherAndChannel() {
        try (Socket scatter = Zmq.socket(context, SocketType.SCATTER); Socket gather = Zmq.socket(context, SocketType.GATHER);
             Socket c1 = Zmq.socket(context, SocketType.CHANNEL); Socket c2 = Zmq.socket(context, SocketType.CHANNEL)) {
            Zmq.connect(gather, scatter, "inproc");
            scatter.send("spread");
            assertEquals("spread", gather.recvString());
            Zmq.connect(c1, c2, "inproc");
            c2.send("via channel");
            assertEquals("via channel", c1.recvString());
        }
    }
}
