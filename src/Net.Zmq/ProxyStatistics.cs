namespace Net.Zmq;

/// <summary>
/// The counters a steerable proxy reports on STATISTICS (<see cref="ProxyController.GetStatistics"/>), counted since
/// the proxy started. In libzmq 4.3.x a multipart message counts as one message and its bytes are those of all its
/// frames; libzmq after 4.3.5 counts every frame as a message.
/// </summary>
/// <param name="FrontendMessagesReceived">Messages the proxy received on its frontend socket.</param>
/// <param name="FrontendBytesReceived">Bytes the proxy received on its frontend socket.</param>
/// <param name="FrontendMessagesSent">Messages the proxy sent out of its frontend socket (replies going back).</param>
/// <param name="FrontendBytesSent">Bytes the proxy sent out of its frontend socket.</param>
/// <param name="BackendMessagesReceived">Messages the proxy received on its backend socket.</param>
/// <param name="BackendBytesReceived">Bytes the proxy received on its backend socket.</param>
/// <param name="BackendMessagesSent">Messages the proxy sent out of its backend socket (requests going on).</param>
/// <param name="BackendBytesSent">Bytes the proxy sent out of its backend socket.</param>
public readonly record struct ProxyStatistics(
    ulong FrontendMessagesReceived,
    ulong FrontendBytesReceived,
    ulong FrontendMessagesSent,
    ulong FrontendBytesSent,
    ulong BackendMessagesReceived,
    ulong BackendBytesReceived,
    ulong BackendMessagesSent,
    ulong BackendBytesSent);
