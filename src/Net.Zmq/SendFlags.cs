namespace Net.Zmq;

/// <summary>Flags for sending a frame.</summary>
[Flags]
public enum SendFlags
{
    /// <summary>Block until the frame is queued (or the socket's SendTimeout expires).</summary>
    None = 0,
    /// <summary>Do not block: the send returns false when the frame cannot be queued now. ZMQ_DONTWAIT.</summary>
    DontWait = 1,
    /// <summary>More frames of the same message follow. ZMQ_SNDMORE.</summary>
    SendMore = 2,
}
