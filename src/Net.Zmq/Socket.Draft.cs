using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Joins a <see cref="SocketType.Dish"/> to <paramref name="group"/> (<c>zmq_join</c>): from now on it receives the
    /// messages a <see cref="SocketType.Radio"/> sends with that <see cref="Message.Group"/>. Over tcp, ipc and inproc
    /// the join travels to the radio in the background, so messages sent just before it arrives are not received.
    /// </summary>
    /// <param name="group">The group name: 1 to 255 UTF-8 bytes, no NUL character.</param>
    /// <exception cref="ArgumentException"><paramref name="group"/> is null, empty, longer than 255 UTF-8 bytes or holds a NUL.</exception>
    /// <exception cref="NotSupportedException">The socket is not a Dish, or the loaded libzmq has no draft API.</exception>
    /// <exception cref="ZmqException">EINVAL: the dish already joined the group.</exception>
    public void Join(string group) => GroupCall(group, join: true);

    /// <summary>Makes a <see cref="SocketType.Dish"/> leave a group it joined (<c>zmq_leave</c>).</summary>
    /// <exception cref="ArgumentException"><paramref name="group"/> is null, empty, longer than 255 UTF-8 bytes or holds a NUL.</exception>
    /// <exception cref="NotSupportedException">The socket is not a Dish, or the loaded libzmq has no draft API.</exception>
    /// <exception cref="ZmqException">EINVAL: the dish had not joined the group.</exception>
    public void Leave(string group) => GroupCall(group, join: false);

    /// <summary>
    /// Connects a <see cref="SocketType.Peer"/> to <paramref name="endpoint"/> (<c>zmq_connect_peer</c>) and returns the
    /// routing id to put in <see cref="Message.RoutingId"/> to send to that peer. The connection is made in the
    /// background; messages sent before it completes wait in the queue.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="endpoint"/> is null or empty.</exception>
    /// <exception cref="NotSupportedException">The socket is not a Peer, or the loaded libzmq has no draft API.</exception>
    /// <exception cref="InvalidOperationException"><see cref="SocketOption.Immediate"/> is set, which libzmq does not allow with ConnectPeer.</exception>
    /// <exception cref="ZmqException">EINVAL (malformed), EPROTONOSUPPORT (unknown transport), ...</exception>
    public unsafe uint ConnectPeer(string endpoint)
    {
        ArgumentException.ThrowIfNullOrEmpty(endpoint);
        if (Type != SocketType.Peer)
        {
            throw new NotSupportedException($"ConnectPeer is for Peer sockets; this is a {Type} socket. Use Connect.");
        }

        delegate* unmanaged<nint, byte*, uint> connectPeer = LibZmqDraft.ConnectPeer;
        if (connectPeer is null)
        {
            ThrowHelper.ThrowDraftMissing("Socket.ConnectPeer");
        }

        using var text = new Utf8Z(endpoint);
        using SocketCall scope = BeginCall();
        nint socket = scope.Native;
        fixed (byte* p = text.Bytes)
        {
            uint routingId = connectPeer(socket, p);
            if (routingId == 0)
            {
                int errorNumber = LibZmq.Errno();
                if (errorNumber == ZmqError.EFAULT)
                {
                    ThrowHelper.ThrowInvalidOperation(
                        "ConnectPeer cannot be used while SocketOption.Immediate is set on the Peer socket: libzmq needs the " +
                        "connection's pipe at once to give it a routing id. Leave Immediate off.");
                }

                ThrowHelper.ThrowZmq(errorNumber, $"ConnectPeer of the Peer socket to '{endpoint}'");
            }

            _boundOrConnected = true;
            return routingId;
        }
    }

    private unsafe void GroupCall(string group, bool join)
    {
        string name = join ? "Join" : "Leave";
        Message.ValidateGroup(group, nameof(group));
        if (Type != SocketType.Dish)
        {
            throw new NotSupportedException(
                $"{name} is for Dish sockets; this is a {Type} socket. A Radio sends to a group through Message.Group.");
        }

        delegate* unmanaged<nint, byte*, int> call = join ? LibZmqDraft.Join : LibZmqDraft.Leave;
        if (call is null)
        {
            ThrowHelper.ThrowDraftMissing($"Socket.{name}");
        }

        using var text = new Utf8Z(group);
        using SocketCall scope = BeginCall();
        nint socket = scope.Native;
        fixed (byte* p = text.Bytes)
        {
            if (call(socket, p) != 0)
            {
                int errorNumber = LibZmq.Errno();
                string reason = errorNumber != ZmqError.EINVAL ? ""
                    : join ? " (the dish has already joined it)" : " (the dish has not joined it)";
                ThrowHelper.ThrowZmq(errorNumber, $"{name} of group '{group}'{reason}");
            }
        }
    }
}
