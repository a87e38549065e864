using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// The opaque 64-byte, pointer-aligned <c>zmq_msg_t</c>. Small messages keep their bytes inside it, so a
/// pointer from <c>zmq_msg_data</c> is only valid while the struct stays where it was when the call ran.
/// </summary>
[StructLayout(LayoutKind.Sequential, Size = Size)]
internal struct ZmqMsg
{
    internal const int Size = 64;

#pragma warning disable IDE0051, CS0169 // storage only: libzmq owns the layout
    private nint _w0, _w1, _w2, _w3, _w4, _w5, _w6, _w7;
#pragma warning restore IDE0051, CS0169
}
