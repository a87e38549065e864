using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// The socket's context was shut down or disposed (ETERM). Receive loops catch this to exit cleanly:
/// <c>catch (ContextTerminatedException) { break; }</c>.
/// </summary>
public sealed class ContextTerminatedException : ZmqException
{
    /// <summary>Creates the exception with the given message.</summary>
    public ContextTerminatedException(string message)
        : base(Errno.ETERM, message)
    {
    }
}
