using Net.Zmq.Interop;

namespace Net.Zmq.Internal;

/// <summary>
/// The symbolic names of the error numbers in <see cref="Errno"/> (EFSM, EADDRINUSE, ...) and the usual cause of each
/// in a Net.Zmq program, for exception messages: libzmq's own numbers (EFSM is 156384763) and the ones it defines on
/// Windows say nothing by themselves.
/// </summary>
internal static class ErrorNames
{
    // Built on first failure only; the fields of Errno are per-OS values, so this cannot be a switch on constants.
    private static readonly Lazy<Dictionary<int, (string Name, string Cause)>> s_table = new(Build);

    /// <summary>The symbolic name of <paramref name="errorNumber"/> ("EFSM"), or null for one Net.Zmq does not name.</summary>
    internal static string? Name(int errorNumber) => s_table.Value.TryGetValue(errorNumber, out var entry) ? entry.Name : null;

    /// <summary>The usual cause of <paramref name="errorNumber"/> and what to do, as a sentence; empty when there is none to add.</summary>
    internal static string Cause(int errorNumber) => s_table.Value.TryGetValue(errorNumber, out var entry) ? entry.Cause : "";

    private static Dictionary<int, (string, string)> Build()
    {
        var table = new Dictionary<int, (string, string)>();
        void Add(int number, string name, string cause) => table.TryAdd(number, (name, cause));

        Add(Errno.ENOENT, nameof(Errno.ENOENT),
            "Unbind or Disconnect named an endpoint this socket did not bind or connect (after binding tcp://host:*, use the LastEndpoint it reported), or an ipc path does not exist.");
        Add(Errno.EINTR, nameof(Errno.EINTR), "A signal interrupted the call.");
        Add(Errno.EBADF, nameof(Errno.EBADF), "A descriptor was closed or is not valid.");
        Add(Errno.EAGAIN, nameof(Errno.EAGAIN), "Nothing to receive, or no room to send, right now.");
        Add(Errno.ENOMEM, nameof(Errno.ENOMEM), "libzmq could not allocate memory.");
        Add(Errno.EFAULT, nameof(Errno.EFAULT),
            "libzmq was given a socket or message that is not valid: a message closed already, or used by two threads at once.");
        Add(Errno.ENODEV, nameof(Errno.ENODEV),
            "The endpoint names a network interface this machine does not have (tcp://eth9:5555): use an address, * or an existing interface.");
        Add(Errno.EINVAL, nameof(Errno.EINVAL),
            "libzmq refused an argument: a malformed endpoint, or an option value out of range or not valid for this socket type.");
        Add(Errno.EMFILE, nameof(Errno.EMFILE),
            "The process reached its limit of open descriptors (ulimit -n) or the context its MaxSockets: close sockets, or raise the limit.");
        Add(Errno.ENOTSUP, nameof(Errno.ENOTSUP),
            "This socket type does not support the operation (receiving on PUB or PUSH, sending on SUB or PULL, an option another type owns).");
        Add(Errno.EPROTONOSUPPORT, nameof(Errno.EPROTONOSUPPORT),
            "The endpoint's transport is unknown or not built into this libzmq: use tcp, ipc, inproc, pgm/epgm, tipc or vmci (Context.Has tells which are there).");
        Add(Errno.ENOBUFS, nameof(Errno.ENOBUFS), "The operating system ran out of buffer space (too many connections or too much unsent data).");
        Add(Errno.ENETDOWN, nameof(Errno.ENETDOWN), "The network interface is down.");
        Add(Errno.EADDRINUSE, nameof(Errno.EADDRINUSE),
            "Another socket or process already listens on that address and port: pick another port, or bind tcp://host:* and read LastEndpoint.");
        Add(Errno.EADDRNOTAVAIL, nameof(Errno.EADDRNOTAVAIL),
            "The address is not one of this machine's: bind to one of its addresses, to * (every interface) or to 127.0.0.1.");
        Add(Errno.ECONNREFUSED, nameof(Errno.ECONNREFUSED), "Nothing listens at that address and port.");
        Add(Errno.EINPROGRESS, nameof(Errno.EINPROGRESS), "A connection is still being made.");
        Add(Errno.ENOTSOCK, nameof(Errno.ENOTSOCK),
            "The handle is not a socket: a socket closed already, or a descriptor (UseFd) that is not a socket.");
        Add(Errno.EMSGSIZE, nameof(Errno.EMSGSIZE), "The message is larger than the transport carries in one piece (a datagram transport such as udp).");
        Add(Errno.EAFNOSUPPORT, nameof(Errno.EAFNOSUPPORT),
            "The address family is not available: an IPv6 address on a socket without SocketOption.Ipv6, or on a host without IPv6.");
        Add(Errno.ENETUNREACH, nameof(Errno.ENETUNREACH), "No route leads to that address's network.");
        Add(Errno.ECONNABORTED, nameof(Errno.ECONNABORTED), "The connection was aborted before it was accepted.");
        Add(Errno.ECONNRESET, nameof(Errno.ECONNRESET), "The peer closed the connection abruptly.");
        Add(Errno.ENOTCONN, nameof(Errno.ENOTCONN), "The socket has no connection for this.");
        Add(Errno.ETIMEDOUT, nameof(Errno.ETIMEDOUT), "The connection or the peer timed out.");
        Add(Errno.EHOSTUNREACH, nameof(Errno.EHOSTUNREACH),
            "No connected peer has that routing id: a ROUTER with RouterMandatory, a SERVER or a PEER was given the id of a peer that is gone or never came.");
        Add(Errno.ENETRESET, nameof(Errno.ENETRESET), "The network dropped the connection (a keepalive failed).");
        Add(Errno.EFSM, nameof(Errno.EFSM),
            "The socket's state machine refused the call: for REQ, send and receive must alternate (receive the reply before sending again); for REP, reply before receiving again.");
        Add(Errno.ENOCOMPATPROTO, nameof(Errno.ENOCOMPATPROTO),
            "The transport cannot carry this socket type: udp takes RADIO/DISH only, pgm/epgm take PUB/SUB (and XPUB/XSUB) only.");
        Add(Errno.ETERM, nameof(Errno.ETERM), "The context was shut down or disposed: close the socket.");
        Add(Errno.EMTHREAD, nameof(Errno.EMTHREAD),
            "No I/O thread is available: a context with ContextOption.IoThreads 0 serves inproc only; give it at least one for tcp, ipc and the others.");
        return table;
    }
}
