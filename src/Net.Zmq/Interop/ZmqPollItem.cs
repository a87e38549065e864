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

/// <summary>
/// The platform's <c>zmq_pollitem_t</c> in raw memory, so that one item array (or one item on the stack) serves either
/// layout: <see cref="ZmqPollItemUnix"/> or <see cref="ZmqPollItemWindows"/>, <see cref="Size"/> bytes each.
/// </summary>
internal static unsafe class ZmqPollItems
{
    /// <summary>The size of one item on this platform; the Windows one is the larger.</summary>
    internal static readonly int Size = OperatingSystem.IsWindows() ? sizeof(ZmqPollItemWindows) : sizeof(ZmqPollItemUnix);

    /// <summary>Writes an item for <paramref name="socket"/> (a libzmq socket, or 0) or else the descriptor <paramref name="fd"/>.</summary>
    internal static void Write(byte* item, nint socket, nint fd, PollEvents events)
    {
        if (OperatingSystem.IsWindows())
        {
            *(ZmqPollItemWindows*)item = new ZmqPollItemWindows { Socket = socket, Fd = fd, Events = (short)events };
        }
        else
        {
            *(ZmqPollItemUnix*)item = new ZmqPollItemUnix { Socket = socket, Fd = (int)fd, Events = (short)events };
        }
    }

    /// <summary>The events the item asks for.</summary>
    internal static ref short Events(byte* item) =>
        ref OperatingSystem.IsWindows() ? ref ((ZmqPollItemWindows*)item)->Events : ref ((ZmqPollItemUnix*)item)->Events;

    /// <summary>The events <c>zmq_poll</c> found on the item.</summary>
    internal static ref short ReturnedEvents(byte* item) =>
        ref OperatingSystem.IsWindows() ? ref ((ZmqPollItemWindows*)item)->ReturnedEvents : ref ((ZmqPollItemUnix*)item)->ReturnedEvents;
}
