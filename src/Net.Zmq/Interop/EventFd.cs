using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// Linux's <c>eventfd</c>, the descriptor an <see cref="EventLoop"/> polls beside its sockets to be woken from other
/// threads: a write adds to a counter and makes it readable, a read takes the counter back to zero.
/// </summary>
internal static unsafe partial class EventFd
{
    internal const int NonBlocking = 0x800;   // EFD_NONBLOCK (O_NONBLOCK on x86-64 and arm64)
    internal const int CloseOnExec = 0x80000; // EFD_CLOEXEC

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "eventfd", SetLastError = true)]
    internal static partial int Create(uint initialValue, int flags);

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "write")]
    internal static partial nint Write(int fd, ulong* value, nuint size);

    [LibraryImport(NativeLibraryNames.LibC, EntryPoint = "read")]
    internal static partial nint Read(int fd, ulong* value, nuint size);
}
