namespace Net.Zmq;

/// <summary>The stable libzmq socket types; the value of each member is libzmq's number for it.</summary>
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
}
