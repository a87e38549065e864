namespace Net.Zmq.Async;

/// <summary>Why a parked operation stopped waiting without finishing its send or receive.</summary>
internal enum WaitEnd : byte
{
    /// <summary>Its cancellation token fired; nothing was sent or received.</summary>
    Cancelled,

    /// <summary>The socket was disposed.</summary>
    SocketDisposed,

    /// <summary>libzmq refused to report the socket's readiness (ETERM once the context is shut down).</summary>
    SocketFailed,
}
