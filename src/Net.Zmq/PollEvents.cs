namespace Net.Zmq;

/// <summary>Readiness events of a socket or file descriptor.</summary>
[Flags]
public enum PollEvents : short
{
    /// <summary>No event.</summary>
    None = 0,
    /// <summary>A message can be received without blocking. ZMQ_POLLIN.</summary>
    In = 1,
    /// <summary>A message can be sent without blocking. ZMQ_POLLOUT.</summary>
    Out = 2,
    /// <summary>An error condition on a file descriptor (never set for libzmq sockets). ZMQ_POLLERR.</summary>
    Error = 4,
    /// <summary>Urgent data on a file descriptor. ZMQ_POLLPRI.</summary>
    Priority = 8,
}
