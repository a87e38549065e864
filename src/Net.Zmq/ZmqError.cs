namespace Net.Zmq;

/// <summary>
/// Error numbers that libzmq reports, with the values of the operating system this process runs on
/// (EAGAIN is 11 on Linux and 35 on macOS). Compare <see cref="ZmqException.ErrorNumber"/> with these.
/// </summary>
public static class ZmqError
{
    private const int HausNumero = 156384712;
    private static readonly Platform s_os = OperatingSystem.IsWindows() ? Platform.Windows
        : OperatingSystem.IsMacOS() || OperatingSystem.IsIOS() || OperatingSystem.IsFreeBSD() ? Platform.Bsd
        : Platform.Linux;

    private enum Platform { Linux, Bsd, Windows }

    /// <summary>No such file or directory (for example an ipc path).</summary>
    public static readonly int ENOENT = 2;
    /// <summary>Interrupted by a signal; Net.Zmq retries blocking calls on it.</summary>
    public static readonly int EINTR = 4;
    /// <summary>Bad file descriptor.</summary>
    public static readonly int EBADF = 9;
    /// <summary>Resource temporarily unavailable: nothing to receive, or no room to send, right now.</summary>
    public static readonly int EAGAIN = Pick(11, 35, 11);
    /// <summary>Out of memory.</summary>
    public static readonly int ENOMEM = 12;
    /// <summary>Bad address (an invalid socket or message).</summary>
    public static readonly int EFAULT = 14;
    /// <summary>No such device (for example an unknown network interface).</summary>
    public static readonly int ENODEV = 19;
    /// <summary>Invalid argument (malformed endpoint, option value out of range, ...).</summary>
    public static readonly int EINVAL = 22;
    /// <summary>Too many open files.</summary>
    public static readonly int EMFILE = 24;
    /// <summary>The operation is not supported by this socket type.</summary>
    public static readonly int ENOTSUP = Pick(95, 45, 129);
    /// <summary>The transport protocol is not supported.</summary>
    public static readonly int EPROTONOSUPPORT = Pick(93, 43, 135);
    /// <summary>No buffer space available.</summary>
    public static readonly int ENOBUFS = Pick(105, 55, 119);
    /// <summary>The network is down.</summary>
    public static readonly int ENETDOWN = Pick(100, 50, 116);
    /// <summary>The address is already in use.</summary>
    public static readonly int EADDRINUSE = Pick(98, 48, 100);
    /// <summary>The address is not available on this machine.</summary>
    public static readonly int EADDRNOTAVAIL = Pick(99, 49, 101);
    /// <summary>Connection refused.</summary>
    public static readonly int ECONNREFUSED = Pick(111, 61, 107);
    /// <summary>Operation in progress.</summary>
    public static readonly int EINPROGRESS = Pick(115, 36, 112);
    /// <summary>Not a socket.</summary>
    public static readonly int ENOTSOCK = Pick(88, 38, 128);
    /// <summary>Message too long.</summary>
    public static readonly int EMSGSIZE = Pick(90, 40, 115);
    /// <summary>Address family not supported.</summary>
    public static readonly int EAFNOSUPPORT = Pick(97, 47, 102);
    /// <summary>Network unreachable.</summary>
    public static readonly int ENETUNREACH = Pick(101, 51, 118);
    /// <summary>Connection aborted.</summary>
    public static readonly int ECONNABORTED = Pick(103, 53, 106);
    /// <summary>Connection reset by peer.</summary>
    public static readonly int ECONNRESET = Pick(104, 54, 108);
    /// <summary>Not connected.</summary>
    public static readonly int ENOTCONN = Pick(107, 57, 126);
    /// <summary>Timed out.</summary>
    public static readonly int ETIMEDOUT = Pick(110, 60, 138);
    /// <summary>The peer is unreachable: a ROUTER with <see cref="SocketOption.RouterMandatory"/> has no peer with that routing id.</summary>
    public static readonly int EHOSTUNREACH = Pick(113, 65, 110);
    /// <summary>Network dropped connection on reset.</summary>
    public static readonly int ENETRESET = Pick(102, 52, 117);

    /// <summary>The operation is not valid in the socket's current state (for example REQ sending twice).</summary>
    public const int EFSM = HausNumero + 51;
    /// <summary>The transport is not compatible with the socket type.</summary>
    public const int ENOCOMPATPROTO = HausNumero + 52;
    /// <summary>The context was terminated; see <see cref="ContextTerminatedException"/>.</summary>
    public const int ETERM = HausNumero + 53;
    /// <summary>No I/O thread is available.</summary>
    public const int EMTHREAD = HausNumero + 54;

    private static int Pick(int linux, int bsd, int windows) => s_os switch
    {
        Platform.Bsd => bsd,
        Platform.Windows => windows,
        _ => linux,
    };
}
