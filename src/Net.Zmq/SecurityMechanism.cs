namespace Net.Zmq;

/// <summary>The security mechanism a socket uses, as read from <see cref="SocketOption.Mechanism"/>.</summary>
public enum SecurityMechanism
{
    /// <summary>No security. ZMQ_NULL.</summary>
    Null = 0,
    /// <summary>Clear-text user name and password. ZMQ_PLAIN.</summary>
    Plain = 1,
    /// <summary>CurveZMQ encryption and authentication. ZMQ_CURVE.</summary>
    Curve = 2,
    /// <summary>Kerberos through GSSAPI. ZMQ_GSSAPI.</summary>
    Gssapi = 3,
}
