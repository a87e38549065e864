namespace Net.Zmq;

/// <summary>
/// The libzmq socket types; the value of each member is libzmq's number for it. <see cref="Server"/> and the members
/// after it are libzmq's draft sockets: they need a libzmq built with the draft API (the one the Net.Zmq package
/// bundles is; <c>Context.Has("draft")</c> tells), are thread-safe, and send and receive single-part messages only.
/// </summary>
public enum SocketType
{
    /// <summary>Exclusive pair: one peer, both directions. ZMQ_PAIR.</summary>
    Pair = 0,
    /// <summary>Publisher: sends to all subscribers, never receives. ZMQ_PUB.</summary>
    Pub = 1,
    /// <summary>Subscriber: receives messages matching its subscriptions, never sends. ZMQ_SUB.</summary>
    Sub = 2,
    /// <summary>Request: strictly alternates send and receive. ZMQ_REQ.</summary>
    Req = 3,
    /// <summary>Reply: strictly alternates receive and send. ZMQ_REP.</summary>
    Rep = 4,
    /// <summary>Dealer: asynchronous request, load-balanced out, fair-queued in. ZMQ_DEALER.</summary>
    Dealer = 5,
    /// <summary>Router: asynchronous reply; frames carry the peer's routing id. ZMQ_ROUTER.</summary>
    Router = 6,
    /// <summary>Pull side of a pipeline. ZMQ_PULL.</summary>
    Pull = 7,
    /// <summary>Push side of a pipeline. ZMQ_PUSH.</summary>
    Push = 8,
    /// <summary>Publisher that also receives subscription messages. ZMQ_XPUB.</summary>
    XPub = 9,
    /// <summary>Subscriber that sends subscription messages as frames. ZMQ_XSUB.</summary>
    XSub = 10,
    /// <summary>Raw TCP with a routing-id frame per message. ZMQ_STREAM.</summary>
    Stream = 11,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Server: talks to many <see cref="Client"/>s; each received
    /// message carries the client's <see cref="Message.RoutingId"/>, and a reply goes to the client whose id the sent
    /// message carries. Single-part, thread-safe. ZMQ_SERVER.
    /// </summary>
    Server = 12,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Client of a <see cref="Server"/>: sends round-robin to its
    /// connections, receives fair-queued. Single-part, thread-safe. ZMQ_CLIENT.
    /// </summary>
    Client = 13,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Radio: publishes each message to the <see cref="Dish"/>es that
    /// joined its <see cref="Message.Group"/>; over tcp, inproc, ipc or udp. Single-part, thread-safe, send only. ZMQ_RADIO.
    /// </summary>
    Radio = 14,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Dish: receives the <see cref="Radio"/> messages of the groups it
    /// joined with <see cref="Socket.Join(string)"/>. Single-part, thread-safe, receive only. ZMQ_DISH.
    /// </summary>
    Dish = 15,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Gather: fair-queues the messages of its <see cref="Scatter"/>
    /// peers, like a single-part PULL. Thread-safe, receive only. ZMQ_GATHER.
    /// </summary>
    Gather = 16,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Scatter: deals messages round-robin to its <see cref="Gather"/>
    /// peers, like a single-part PUSH. Thread-safe, send only. ZMQ_SCATTER.
    /// </summary>
    Scatter = 17,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Peer: many-to-many; <see cref="Socket.ConnectPeer(string)"/>
    /// returns the routing id to address the peer it connects to, and received messages carry the sender's
    /// <see cref="Message.RoutingId"/>. Single-part, thread-safe. ZMQ_PEER.
    /// </summary>
    Peer = 19,
    /// <summary>
    /// Draft: needs a libzmq built with the draft API. Channel: one peer, both directions, like a single-part,
    /// thread-safe <see cref="Pair"/>. ZMQ_CHANNEL.
    /// </summary>
    Channel = 20,
}
