package net.zmq;

/**
 * The socket types of libzmq. The draft types (SERVER … CHANNEL) need a libzmq built with the draft API, as the
 * bundled one is; with another libzmq, creating one throws {@link ZmqException} (EINVAL). A {@link Socket} of a type
 * marked thread-safe (libzmq's ZMQ_THREAD_SAFE) takes calls from several threads at once; the others, one at a time.
 */
public enum SocketType {
    PAIR(0), PUB(1), SUB(2), REQ(3), REP(4), DEALER(5), ROUTER(6), PULL(7), PUSH(8), XPUB(9), XSUB(10), STREAM(11),
    /** Draft: thread-safe, single-frame, addressed by a 32-bit routing id. */
    SERVER(12),
    /** Draft: thread-safe, single-frame counterpart of {@link #SERVER}. */
    CLIENT(13),
    /** Draft: thread-safe, publishes to groups ({@link Message#setGroup}). */
    RADIO(14),
    /** Draft: thread-safe, receives the groups it {@link Socket#join joined}. */
    DISH(15),
    /** Draft: thread-safe, single-frame PULL. */
    GATHER(16),
    /** Draft: thread-safe, single-frame PUSH. */
    SCATTER(17),
    /** Draft: UDP datagrams. */
    DGRAM(18),
    /** Draft: thread-safe, peer-to-peer by routing id. */
    PEER(19),
    /** Draft: thread-safe single-frame PAIR. */
    CHANNEL(20);

    final int value;

    SocketType(int value) {
        this.value = value;
    }

    /** libzmq's number for this type (ZMQ_PAIR = 0, …). */
    public int value() {
        return value;
    }

    /** Whether this is a draft type, available only with a draft-enabled libzmq. */
    public boolean isDraft() {
        return value >= 12;
    }
}
