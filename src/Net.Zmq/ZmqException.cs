namespace Net.Zmq;

/// <summary>
/// A libzmq call failed. <see cref="ErrorNumber"/> is the raw error number (compare it with the fields of
/// <see cref="ZmqError"/>); the message is libzmq's own text plus what Net.Zmq was doing.
/// </summary>
public class ZmqException : Exception
{
    /// <summary>Creates an exception for <paramref name="errorNumber"/> with the given message.</summary>
    public ZmqException(int errorNumber, string message)
        : base(message)
    {
        ErrorNumber = errorNumber;
    }

    /// <summary>Creates an exception for <paramref name="errorNumber"/> with the given message and inner exception.</summary>
    public ZmqException(int errorNumber, string message, Exception? innerException)
        : base(message, innerException)
    {
        ErrorNumber = errorNumber;
    }

    /// <summary>The error number libzmq reported (errno), as it is on this operating system.</summary>
    public int ErrorNumber { get; }
}
