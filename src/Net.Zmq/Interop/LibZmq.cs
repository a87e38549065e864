using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// Declarations of the libzmq C API. Every signature is blittable (pointers, <c>nint</c>, <c>int</c>),
/// so no marshalling stub runs. <see cref="SuppressGCTransitionAttribute"/> is used only on calls that
/// are trivial and never block.
/// </summary>
internal static unsafe partial class LibZmq
{
    // Context
    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_ctx_new")]
    internal static partial nint CtxNew();

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_ctx_term")]
    internal static partial int CtxTerm(nint context);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_ctx_shutdown")]
    internal static partial int CtxShutdown(nint context);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_ctx_set")]
    internal static partial int CtxSet(nint context, int option, int value);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_ctx_get")]
    internal static partial int CtxGet(nint context, int option);

    // Library
    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_version")]
    internal static partial void Version(int* major, int* minor, int* patch);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_has")]
    internal static partial int Has(byte* capability);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_errno")]
    [SuppressGCTransition]
    internal static partial int Errno();

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_strerror")]
    internal static partial byte* StrError(int errnum);

    // Socket
    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_socket")]
    internal static partial nint Socket(nint context, int type);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_close")]
    internal static partial int Close(nint socket);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_bind")]
    internal static partial int Bind(nint socket, byte* endpoint);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_connect")]
    internal static partial int Connect(nint socket, byte* endpoint);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_unbind")]
    internal static partial int Unbind(nint socket, byte* endpoint);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_disconnect")]
    internal static partial int Disconnect(nint socket, byte* endpoint);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_setsockopt")]
    internal static partial int SetSockOpt(nint socket, int option, void* value, nuint size);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_getsockopt")]
    internal static partial int GetSockOpt(nint socket, int option, void* value, nuint* size);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_send")]
    internal static partial int Send(nint socket, void* buffer, nuint length, int flags);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_recv")]
    internal static partial int Recv(nint socket, void* buffer, nuint length, int flags);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_socket_monitor")]
    internal static partial int SocketMonitor(nint socket, byte* endpoint, int events);

    // Messages
    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_init")]
    [SuppressGCTransition]
    internal static partial int MsgInit(ZmqMsg* msg);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_init_size")]
    internal static partial int MsgInitSize(ZmqMsg* msg, nuint size);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_init_data")]
    internal static partial int MsgInitData(ZmqMsg* msg, void* data, nuint size, delegate* unmanaged<nint, nint, void> free, nint hint);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_send")]
    internal static partial int MsgSend(ZmqMsg* msg, nint socket, int flags);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_recv")]
    internal static partial int MsgRecv(ZmqMsg* msg, nint socket, int flags);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_close")]
    internal static partial int MsgClose(ZmqMsg* msg);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_move")]
    internal static partial int MsgMove(ZmqMsg* destination, ZmqMsg* source);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_copy")]
    internal static partial int MsgCopy(ZmqMsg* destination, ZmqMsg* source);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_data")]
    [SuppressGCTransition]
    internal static partial byte* MsgData(ZmqMsg* msg);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_size")]
    [SuppressGCTransition]
    internal static partial nuint MsgSize(ZmqMsg* msg);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_more")]
    [SuppressGCTransition]
    internal static partial int MsgMore(ZmqMsg* msg);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_msg_gets")]
    internal static partial byte* MsgGets(ZmqMsg* msg, byte* property);

    // Polling and devices
    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_poll")]
    internal static partial int Poll(void* items, int count, CLong timeout);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_proxy")]
    internal static partial int Proxy(nint frontend, nint backend, nint capture);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_proxy_steerable")]
    internal static partial int ProxySteerable(nint frontend, nint backend, nint capture, nint control);

    // Security helpers
    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_curve_keypair")]
    internal static partial int CurveKeypair(byte* publicKey, byte* secretKey);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_curve_public")]
    internal static partial int CurvePublic(byte* publicKey, byte* secretKey);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_z85_encode")]
    internal static partial byte* Z85Encode(byte* destination, byte* data, nuint size);

    [LibraryImport(NativeLibraryNames.LibZmq, EntryPoint = "zmq_z85_decode")]
    internal static partial byte* Z85Decode(byte* destination, byte* text);
}
