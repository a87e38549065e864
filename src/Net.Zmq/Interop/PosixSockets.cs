using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>The C library's <c>getsockopt</c>, to check a descriptor before handing it to libzmq (Linux values).</summary>
internal static unsafe partial class PosixSockets
{
    private const int SolSocket = 1;     // SOL_SOCKET
    private const int SoAcceptConn = 30; // SO_ACCEPTCONN

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "getsockopt")]
    private static partial int GetSockOpt(int fd, int level, int option, void* value, uint* length);

    /// <summary>Whether <paramref name="fd"/> is a socket in the listening state.</summary>
    internal static bool IsListening(int fd)
    {
        int accepting = 0;
        uint length = sizeof(int);
        return GetSockOpt(fd, SolSocket, SoAcceptConn, &accepting, &length) == 0 && accepting != 0;
    }
}
