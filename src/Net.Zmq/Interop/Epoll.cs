using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// Linux's epoll, which <see cref="Async.SocketReactor"/> uses to wait on the <c>ZMQ_FD</c> of many sockets at once.
/// <c>struct epoll_event</c> is packed to 12 bytes on x86-64 and naturally aligned (16 bytes) elsewhere, so events are
/// read and written through <see cref="EventSize"/> and <see cref="DataOffset"/> rather than a managed struct.
/// </summary>
internal static unsafe partial class Epoll
{
    internal const int CloseOnExec = 0x80000;  // EPOLL_CLOEXEC
    internal const int Add = 1;                // EPOLL_CTL_ADD
    internal const int Delete = 2;             // EPOLL_CTL_DEL
    internal const uint In = 0x001;            // EPOLLIN
    internal const uint EdgeTriggered = 1u << 31; // EPOLLET

    internal static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;
    internal static readonly int DataOffset = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 4 : 8;

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "epoll_create1", SetLastError = true)]
    internal static partial int Create(int flags);

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "epoll_ctl", SetLastError = true)]
    internal static partial int Control(int epoll, int operation, int fd, byte* @event);

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "epoll_wait", SetLastError = true)]
    internal static partial int Wait(int epoll, byte* events, int maxEvents, int timeoutMilliseconds);

    /// <summary>Writes one <c>epoll_event</c> at <paramref name="destination"/>.</summary>
    internal static void WriteEvent(byte* destination, uint events, ulong data)
    {
        *(uint*)destination = events;
        *(ulong*)(destination + DataOffset) = data;
    }

    /// <summary>Reads the user data of the <paramref name="index"/>th event in <paramref name="events"/>.</summary>
    internal static ulong ReadData(byte* events, int index) => *(ulong*)(events + (index * EventSize) + DataOffset);
}
