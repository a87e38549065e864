namespace Net.Zmq.Interop;

/// <summary>
/// The error numbers libzmq reports, with the values of the operating system this process runs on (EAGAIN is 11 on
/// Linux and 35 on macOS): the one table of them. <see cref="ZmqError"/> re-exports it as public API.
/// </summary>
internal static class Errno
{
    private const int HausNumero = 156384712;
    private static readonly Platform s_os = OperatingSystem.IsWindows() ? Platform.Windows
        : OperatingSystem.IsMacOS() || OperatingSystem.IsIOS() || OperatingSystem.IsFreeBSD() ? Platform.Bsd
        : Platform.Linux;

    private enum Platform { Linux, Bsd, Windows }

    // POSIX numbers; where they differ, Pick(Linux, macOS and the BSDs, Windows' CRT as libzmq reports it).
    internal static readonly int ENOENT = 2;
    internal static readonly int EINTR = 4;
    internal static readonly int EBADF = 9;
    internal static readonly int EAGAIN = Pick(11, 35, 11);
    internal static readonly int ENOMEM = 12;
    internal static readonly int EFAULT = 14;
    internal static readonly int ENODEV = 19;
    internal static readonly int EINVAL = 22;
    internal static readonly int EMFILE = 24;
    internal static readonly int ENOTSUP = Pick(95, 45, 129);
    internal static readonly int EPROTONOSUPPORT = Pick(93, 43, 135);
    internal static readonly int ENOBUFS = Pick(105, 55, 119);
    internal static readonly int ENETDOWN = Pick(100, 50, 116);
    internal static readonly int EADDRINUSE = Pick(98, 48, 100);
    internal static readonly int EADDRNOTAVAIL = Pick(99, 49, 101);
    internal static readonly int ECONNREFUSED = Pick(111, 61, 107);
    internal static readonly int EINPROGRESS = Pick(115, 36, 112);
    internal static readonly int ENOTSOCK = Pick(88, 38, 128);
    internal static readonly int EMSGSIZE = Pick(90, 40, 115);
    internal static readonly int EAFNOSUPPORT = Pick(97, 47, 102);
    internal static readonly int ENETUNREACH = Pick(101, 51, 118);
    internal static readonly int ECONNABORTED = Pick(103, 53, 106);
    internal static readonly int ECONNRESET = Pick(104, 54, 108);
    internal static readonly int ENOTCONN = Pick(107, 57, 126);
    internal static readonly int ETIMEDOUT = Pick(110, 60, 138);
    internal static readonly int EHOSTUNREACH = Pick(113, 65, 110);
    internal static readonly int ENETRESET = Pick(102, 52, 117);
    internal static readonly int ELOOP = Pick(40, 62, 114);

    // libzmq's own numbers, the same everywhere.
    internal const int EFSM = HausNumero + 51;
    internal const int ENOCOMPATPROTO = HausNumero + 52;
    internal const int ETERM = HausNumero + 53;
    internal const int EMTHREAD = HausNumero + 54;

    private static int Pick(int linux, int bsd, int windows) => s_os switch
    {
        Platform.Bsd => bsd,
        Platform.Windows => windows,
        _ => linux,
    };
}
