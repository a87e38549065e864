namespace Net.Zmq.Monitoring;

/// <summary>The socket events libzmq 4.3 reports to a monitor (<c>ZMQ_EVENT_*</c>); combine them to choose what to watch.</summary>
[Flags]
public enum SocketEvents
{
    /// <summary>No event.</summary>
    None = 0,
    /// <summary>A connection was established; the value is the file descriptor.</summary>
    Connected = 0x0001,
    /// <summary>A synchronous connect failed and is being retried; the value is the error number.</summary>
    ConnectDelayed = 0x0002,
    /// <summary>A reconnection will be tried; the value is the reconnect interval in milliseconds.</summary>
    ConnectRetried = 0x0004,
    /// <summary>The socket is listening on the endpoint; the value is the file descriptor.</summary>
    Listening = 0x0008,
    /// <summary>Binding failed; the value is the error number.</summary>
    BindFailed = 0x0010,
    /// <summary>A connection from a peer was accepted; the value is the file descriptor.</summary>
    Accepted = 0x0020,
    /// <summary>Accepting a connection failed; the value is the error number.</summary>
    AcceptFailed = 0x0040,
    /// <summary>A connection's file descriptor was closed; the value is the file descriptor.</summary>
    Closed = 0x0080,
    /// <summary>Closing a file descriptor failed; the value is the error number.</summary>
    CloseFailed = 0x0100,
    /// <summary>The session was broken unexpectedly; the value is the file descriptor.</summary>
    Disconnected = 0x0200,
    /// <summary>Monitoring of the socket stopped.</summary>
    MonitorStopped = 0x0400,
    /// <summary>The ZMTP handshake failed before any detail was known; the value is the error number.</summary>
    HandshakeFailedNoDetail = 0x0800,
    /// <summary>The ZMTP handshake, including authentication, succeeded.</summary>
    HandshakeSucceeded = 0x1000,
    /// <summary>The handshake failed on a protocol error; the value is a <c>ZMQ_PROTOCOL_ERROR_*</c> code.</summary>
    HandshakeFailedProtocol = 0x2000,
    /// <summary>The handshake failed on authentication; the value is the ZAP status code (for example 400).</summary>
    HandshakeFailedAuth = 0x4000,
    /// <summary>Every event.</summary>
    All = 0xFFFF,
}
