using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// Error numbers that libzmq reports, with the values of the operating system this process runs on
/// (EAGAIN is 11 on Linux and 35 on macOS). Compare <see cref="ZmqException.ErrorNumber"/> with these.
/// </summary>
public static class ZmqError
{
    /// <summary>No such file or directory (for example an ipc path).</summary>
    public static readonly int ENOENT = Errno.ENOENT;
    /// <summary>Interrupted by a signal; Net.Zmq retries blocking calls on it.</summary>
    public static readonly int EINTR = Errno.EINTR;
    /// <summary>Bad file descriptor.</summary>
    public static readonly int EBADF = Errno.EBADF;
    /// <summary>Resource temporarily unavailable: nothing to receive, or no room to send, right now.</summary>
    public static readonly int EAGAIN = Errno.EAGAIN;
    /// <summary>Out of memory.</summary>
    public static readonly int ENOMEM = Errno.ENOMEM;
    /// <summary>Bad address (an invalid socket or message).</summary>
    public static readonly int EFAULT = Errno.EFAULT;
    /// <summary>No such device (for example an unknown network interface).</summary>
    public static readonly int ENODEV = Errno.ENODEV;
    /// <summary>Invalid argument (malformed endpoint, option value out of range, ...).</summary>
    public static readonly int EINVAL = Errno.EINVAL;
    /// <summary>Too many open files.</summary>
    public static readonly int EMFILE = Errno.EMFILE;
    /// <summary>The operation is not supported by this socket type.</summary>
    public static readonly int ENOTSUP = Errno.ENOTSUP;
    /// <summary>The transport protocol is not supported.</summary>
    public static readonly int EPROTONOSUPPORT = Errno.EPROTONOSUPPORT;
    /// <summary>No buffer space available.</summary>
    public static readonly int ENOBUFS = Errno.ENOBUFS;
    /// <summary>The network is down.</summary>
    public static readonly int ENETDOWN = Errno.ENETDOWN;
    /// <summary>The address is already in use.</summary>
    public static readonly int EADDRINUSE = Errno.EADDRINUSE;
    /// <summary>The address is not available on this machine.</summary>
    public static readonly int EADDRNOTAVAIL = Errno.EADDRNOTAVAIL;
    /// <summary>Connection refused.</summary>
    public static readonly int ECONNREFUSED = Errno.ECONNREFUSED;
    /// <summary>Operation in progress.</summary>
    public static readonly int EINPROGRESS = Errno.EINPROGRESS;
    /// <summary>Not a socket.</summary>
    public static readonly int ENOTSOCK = Errno.ENOTSOCK;
    /// <summary>Message too long.</summary>
    public static readonly int EMSGSIZE = Errno.EMSGSIZE;
    /// <summary>Address family not supported.</summary>
    public static readonly int EAFNOSUPPORT = Errno.EAFNOSUPPORT;
    /// <summary>Network unreachable.</summary>
    public static readonly int ENETUNREACH = Errno.ENETUNREACH;
    /// <summary>Connection aborted.</summary>
    public static readonly int ECONNABORTED = Errno.ECONNABORTED;
    /// <summary>Connection reset by peer.</summary>
    public static readonly int ECONNRESET = Errno.ECONNRESET;
    /// <summary>Not connected.</summary>
    public static readonly int ENOTCONN = Errno.ENOTCONN;
    /// <summary>Timed out.</summary>
    public static readonly int ETIMEDOUT = Errno.ETIMEDOUT;
    /// <summary>The peer is unreachable: a ROUTER with <see cref="SocketOption.RouterMandatory"/> has no peer with that routing id.</summary>
    public static readonly int EHOSTUNREACH = Errno.EHOSTUNREACH;
    /// <summary>Network dropped connection on reset.</summary>
    public static readonly int ENETRESET = Errno.ENETRESET;

    /// <summary>The operation is not valid in the socket's current state (for example REQ sending twice).</summary>
    public const int EFSM = Errno.EFSM;
    /// <summary>The transport is not compatible with the socket type.</summary>
    public const int ENOCOMPATPROTO = Errno.ENOCOMPATPROTO;
    /// <summary>The context was terminated; see <see cref="ContextTerminatedException"/>.</summary>
    public const int ETERM = Errno.ETERM;
    /// <summary>No I/O thread is available.</summary>
    public const int EMTHREAD = Errno.EMTHREAD;
}
