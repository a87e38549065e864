namespace Net.Zmq;

/// <summary>Flags for receiving a frame.</summary>
[Flags]
public enum RecvFlags
{
    /// <summary>Block until a frame arrives (or the socket's ReceiveTimeout expires).</summary>
    None = 0,
    /// <summary>Do not block: the receive reports "nothing" (−1 or false) when no frame is waiting. ZMQ_DONTWAIT.</summary>
    DontWait = 1,
}
