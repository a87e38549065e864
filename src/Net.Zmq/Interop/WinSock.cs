using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Net.Zmq.Interop;

/// <summary>Windows Sockets' WSAPoll, which <see cref="Async.WSAPollReactor"/> uses to wait on the <c>ZMQ_FD</c> of many sockets.</summary>
[SupportedOSPlatform("windows")]
internal static unsafe partial class WinSock
{
    internal const short PollReadNormal = 0x0100; // POLLRDNORM, the readability WSAPoll accepts for a request
    internal const int SocketError = -1;

    /// <summary><c>WSAPOLLFD</c>: a <c>SOCKET</c>, the events asked for and the events that happened.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct PollDescriptor
    {
        internal nint Socket;
        internal short Events;
        internal short ReturnedEvents;
    }

    [LibraryImport(NativeLibraryNames.WinSock, EntryPoint = "WSAPoll")]
    internal static partial int Poll(PollDescriptor* descriptors, uint count, int timeoutMilliseconds);

    [LibraryImport(NativeLibraryNames.WinSock, EntryPoint = "WSAGetLastError")]
    internal static partial int GetLastError();
}
