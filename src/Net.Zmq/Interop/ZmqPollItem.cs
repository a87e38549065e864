using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary><c>zmq_pollitem_t</c> where the file descriptor is an <c>int</c> (Linux, macOS, BSD).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct ZmqPollItemUnix
{
    internal nint Socket;
    internal int Fd;
    internal short Events;
    internal short ReturnedEvents;
}

/// <summary><c>zmq_pollitem_t</c> where the file descriptor is a <c>SOCKET</c> (Windows).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct ZmqPollItemWindows
{
    internal nint Socket;
    internal nint Fd;
    internal short Events;
    internal short ReturnedEvents;
}
