using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// The draft functions of libzmq (<c>zmq_join</c>, <c>zmq_msg_routing_id</c>, ...), which only a libzmq built with
/// <c>--enable-drafts</c> exports. They are looked up once, at run time, in the library the loader chose; a missing
/// export leaves its pointer null, and callers turn that into <see cref="NotSupportedException"/>.
/// </summary>
internal static unsafe class LibZmqDraft
{
    /// <summary>
    /// Whether the loaded libzmq was built with the draft API (<c>zmq_has("draft")</c>). A libzmq 4.3 without it still
    /// creates the draft socket types, but lacks the functions that make them usable (routing ids, groups, join) and
    /// the polling of thread-safe sockets, so Net.Zmq refuses them there.
    /// </summary>
    internal static readonly bool Available;

    /// <summary><c>int zmq_join(void *s, const char *group)</c>.</summary>
    internal static readonly delegate* unmanaged<nint, byte*, int> Join;

    /// <summary><c>int zmq_leave(void *s, const char *group)</c>.</summary>
    internal static readonly delegate* unmanaged<nint, byte*, int> Leave;

    /// <summary><c>uint32_t zmq_connect_peer(void *s, const char *addr)</c>; 0 on failure, with errno set.</summary>
    internal static readonly delegate* unmanaged<nint, byte*, uint> ConnectPeer;

    /// <summary><c>int zmq_msg_set_routing_id(zmq_msg_t *msg, uint32_t routing_id)</c>.</summary>
    internal static readonly delegate* unmanaged<ZmqMsg*, uint, int> MsgSetRoutingId;

    /// <summary><c>uint32_t zmq_msg_routing_id(zmq_msg_t *msg)</c>.</summary>
    internal static readonly delegate* unmanaged<ZmqMsg*, uint> MsgRoutingId;

    /// <summary><c>int zmq_msg_set_group(zmq_msg_t *msg, const char *group)</c>.</summary>
    internal static readonly delegate* unmanaged<ZmqMsg*, byte*, int> MsgSetGroup;

    /// <summary><c>const char *zmq_msg_group(zmq_msg_t *msg)</c>.</summary>
    internal static readonly delegate* unmanaged<ZmqMsg*, byte*> MsgGroup;

    /// <summary><c>int zmq_socket_get_peer_state(void *s, const void *routing_id, size_t routing_id_size)</c>; -1 when the ROUTER has no such peer.</summary>
    internal static readonly delegate* unmanaged<nint, byte*, nuint, int> SocketGetPeerState;

#pragma warning disable CA1810 // the exports can only be looked up once the library is loaded, in this order
    static LibZmqDraft()
#pragma warning restore CA1810
    {
        nint library = NativeLibraryLoader.Handle; // the very library the LibraryImports are bound to
        fixed (byte* draft = "draft\0"u8)
        {
            Available = LibZmq.Has(draft) != 0;
        }

        Join = (delegate* unmanaged<nint, byte*, int>)Find(library, "zmq_join");
        Leave = (delegate* unmanaged<nint, byte*, int>)Find(library, "zmq_leave");
        ConnectPeer = (delegate* unmanaged<nint, byte*, uint>)Find(library, "zmq_connect_peer");
        MsgSetRoutingId = (delegate* unmanaged<ZmqMsg*, uint, int>)Find(library, "zmq_msg_set_routing_id");
        MsgRoutingId = (delegate* unmanaged<ZmqMsg*, uint>)Find(library, "zmq_msg_routing_id");
        MsgSetGroup = (delegate* unmanaged<ZmqMsg*, byte*, int>)Find(library, "zmq_msg_set_group");
        MsgGroup = (delegate* unmanaged<ZmqMsg*, byte*>)Find(library, "zmq_msg_group");
        SocketGetPeerState = (delegate* unmanaged<nint, byte*, nuint, int>)Find(library, "zmq_socket_get_peer_state");
    }

    private static nint Find(nint library, string name) =>
        NativeLibrary.TryGetExport(library, name, out nint address) ? address : 0;
}
