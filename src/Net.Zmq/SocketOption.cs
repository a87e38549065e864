namespace Net.Zmq;

/// <summary>
/// The socket options of libzmq 4.3, by .NET name, for <see cref="Socket.SetOption(SocketOption, int)"/>
/// and <see cref="Socket.GetOption{T}(SocketOption)"/>. The value of each member is libzmq's option number.
/// Times are milliseconds (or a <see cref="TimeSpan"/>); −1 means "infinite" where libzmq allows it.
/// Options from <see cref="ZapEnforceDomain"/> on are in the draft section of libzmq's zmq.h; those marked "draft
/// only" need a libzmq built with the draft API and throw <see cref="NotSupportedException"/> elsewhere, while libzmq
/// 4.3 accepts the others in every build.
/// </summary>
public enum SocketOption
{
    /// <summary>I/O thread affinity bitmask for new connections (ulong). ZMQ_AFFINITY.</summary>
    Affinity = 4,
    /// <summary>The socket's routing id, 1 to 255 bytes, not starting with a zero byte. ZMQ_ROUTING_ID.</summary>
    RoutingId = 5,
    /// <summary>Adds a message prefix filter on a SUB socket (bytes or string; write-only). ZMQ_SUBSCRIBE.</summary>
    Subscribe = 6,
    /// <summary>Removes a message prefix filter on a SUB socket (write-only). ZMQ_UNSUBSCRIBE.</summary>
    Unsubscribe = 7,
    /// <summary>Multicast data rate in kilobits per second (int). ZMQ_RATE.</summary>
    Rate = 8,
    /// <summary>Multicast recovery interval (milliseconds). ZMQ_RECOVERY_IVL.</summary>
    RecoveryInterval = 9,
    /// <summary>Kernel transmit buffer size in bytes; −1 keeps the OS default (int). ZMQ_SNDBUF.</summary>
    SendBuffer = 11,
    /// <summary>Kernel receive buffer size in bytes; −1 keeps the OS default (int). ZMQ_RCVBUF.</summary>
    ReceiveBuffer = 12,
    /// <summary>Whether more frames of the current message follow (bool, read-only). ZMQ_RCVMORE.</summary>
    ReceiveMore = 13,
    /// <summary>The file descriptor that signals socket events, edge-triggered (read-only; long). ZMQ_FD.</summary>
    FileDescriptor = 14,
    /// <summary>The socket's current <see cref="PollEvents"/> (int, read-only). ZMQ_EVENTS.</summary>
    Events = 15,
    /// <summary>The <see cref="SocketType"/> (int, read-only). ZMQ_TYPE.</summary>
    Type = 16,
    /// <summary>How long unsent messages are kept after the socket is closed (milliseconds; −1 = forever). ZMQ_LINGER.</summary>
    Linger = 17,
    /// <summary>Initial reconnection interval (milliseconds; −1 = no reconnection). ZMQ_RECONNECT_IVL.</summary>
    ReconnectInterval = 18,
    /// <summary>Maximum length of the queue of pending connections (int). ZMQ_BACKLOG.</summary>
    Backlog = 19,
    /// <summary>Maximum reconnection interval for exponential back-off (milliseconds; 0 = off). ZMQ_RECONNECT_IVL_MAX.</summary>
    ReconnectIntervalMax = 21,
    /// <summary>Largest inbound message accepted; larger ones disconnect the peer (long; −1 = no limit). ZMQ_MAXMSGSIZE.</summary>
    MaxMessageSize = 22,
    /// <summary>High water mark for outbound messages (int; 0 = no limit). ZMQ_SNDHWM.</summary>
    SendHighWatermark = 23,
    /// <summary>High water mark for inbound messages (int; 0 = no limit). ZMQ_RCVHWM.</summary>
    ReceiveHighWatermark = 24,
    /// <summary>Maximum network hops for multicast packets (int). ZMQ_MULTICAST_HOPS.</summary>
    MulticastHops = 25,
    /// <summary>Receive timeout (milliseconds; −1 = block forever). ZMQ_RCVTIMEO.</summary>
    ReceiveTimeout = 27,
    /// <summary>Send timeout (milliseconds; −1 = block forever). ZMQ_SNDTIMEO.</summary>
    SendTimeout = 28,
    /// <summary>IPv4 only (deprecated in libzmq; use <see cref="Ipv6"/>) (bool). ZMQ_IPV4ONLY.</summary>
    Ipv4Only = 31,
    /// <summary>The last endpoint bound or connected, with the real port after a wildcard bind (string, read-only). ZMQ_LAST_ENDPOINT.</summary>
    LastEndpoint = 32,
    /// <summary>ROUTER: fail sends to unknown peers with EHOSTUNREACH instead of dropping them (bool, write-only). ZMQ_ROUTER_MANDATORY.</summary>
    RouterMandatory = 33,
    /// <summary>SO_KEEPALIVE: −1 = OS default, 0 = off, 1 = on (int). ZMQ_TCP_KEEPALIVE.</summary>
    TcpKeepalive = 34,
    /// <summary>TCP_KEEPCNT; −1 = OS default (int). ZMQ_TCP_KEEPALIVE_CNT.</summary>
    TcpKeepaliveCount = 35,
    /// <summary>TCP_KEEPIDLE in seconds; −1 = OS default (int). ZMQ_TCP_KEEPALIVE_IDLE.</summary>
    TcpKeepaliveIdle = 36,
    /// <summary>TCP_KEEPINTVL in seconds; −1 = OS default (int). ZMQ_TCP_KEEPALIVE_INTVL.</summary>
    TcpKeepaliveInterval = 37,
    /// <summary>Adds an accepted-peer address filter (deprecated in libzmq; use ZAP) (string, write-only). ZMQ_TCP_ACCEPT_FILTER.</summary>
    TcpAcceptFilter = 38,
    /// <summary>Queue messages only to completed connections (bool). ZMQ_IMMEDIATE.</summary>
    Immediate = 39,
    /// <summary>XPUB: pass every subscription message upstream, not only new ones (bool, write-only). ZMQ_XPUB_VERBOSE.</summary>
    XPubVerbose = 40,
    /// <summary>ROUTER raw mode (deprecated in libzmq; use <see cref="SocketType.Stream"/>) (bool, write-only). ZMQ_ROUTER_RAW.</summary>
    RouterRaw = 41,
    /// <summary>Enables IPv6 on the socket (bool). ZMQ_IPV6.</summary>
    Ipv6 = 42,
    /// <summary>The active <see cref="SecurityMechanism"/> (int, read-only). ZMQ_MECHANISM.</summary>
    Mechanism = 43,
    /// <summary>Act as a PLAIN server (bool). ZMQ_PLAIN_SERVER.</summary>
    PlainServer = 44,
    /// <summary>PLAIN client user name (string). ZMQ_PLAIN_USERNAME.</summary>
    PlainUsername = 45,
    /// <summary>
    /// PLAIN client password (string). ZMQ_PLAIN_PASSWORD. libzmq lets <see cref="Socket.GetOption{T}(SocketOption)"/>
    /// read it back: whoever holds the socket can read the password.
    /// </summary>
    PlainPassword = 46,
    /// <summary>Act as a CURVE server (bool). ZMQ_CURVE_SERVER.</summary>
    CurveServer = 47,
    /// <summary>CURVE long-term public key: 32 bytes, or 40 Z85 characters (read back as Z85 string or 32 bytes). ZMQ_CURVE_PUBLICKEY.</summary>
    CurvePublicKey = 48,
    /// <summary>
    /// CURVE long-term secret key: 32 bytes, or 40 Z85 characters. ZMQ_CURVE_SECRETKEY. libzmq lets
    /// <see cref="Socket.GetOption{T}(SocketOption)"/> read it back: whoever holds the socket can read the key.
    /// </summary>
    CurveSecretKey = 49,
    /// <summary>The CURVE server's public key a client expects: 32 bytes, or 40 Z85 characters. ZMQ_CURVE_SERVERKEY.</summary>
    CurveServerKey = 50,
    /// <summary>Send an empty message on connect so ROUTER peers learn this socket (bool, write-only). ZMQ_PROBE_ROUTER.</summary>
    ProbeRouter = 51,
    /// <summary>REQ: match replies with requests (bool, write-only). ZMQ_REQ_CORRELATE.</summary>
    RequestCorrelate = 52,
    /// <summary>REQ: allow a new request before the reply arrived (bool, write-only). ZMQ_REQ_RELAXED.</summary>
    RequestRelaxed = 53,
    /// <summary>Keep only the last message in the queues (bool). ZMQ_CONFLATE.</summary>
    /// <remarks>
    /// <para>
    /// <b>Single-part messages only.</b> A conflating queue holds one frame, not one message: libzmq aborts the whole
    /// process (<c>Assertion failed: !_more (src/fq.cpp)</c>, exit code 134, no exception to catch) when a socket with
    /// Conflate receives a multipart message. Make sure every peer of a receiving Conflate socket sends single-part
    /// messages. A socket with Conflate set refuses <see cref="SendFlags.SendMore"/> and multipart sends itself, with an
    /// <see cref="ArgumentException"/>, before anything is queued.
    /// </para>
    /// <para>
    /// <b>The last message per socket, not per topic.</b> A SUB with Conflate keeps the newest message of all its
    /// subscriptions together (each connection keeps one: a SUB connected to one publisher keeps one message in all):
    /// with topics A and B, a fast B replaces the A you had not read yet. Use one conflating SUB per topic to keep the
    /// latest of each. Set it before connecting or binding: it applies to connections made afterwards.
    /// </para>
    /// </remarks>
    Conflate = 54,
    /// <summary>The ZAP domain used for authentication (string). ZMQ_ZAP_DOMAIN.</summary>
    ZapDomain = 55,
    /// <summary>ROUTER: a new connection with a taken routing id takes it over (bool, write-only). ZMQ_ROUTER_HANDOVER.</summary>
    RouterHandover = 56,
    /// <summary>IP type-of-service byte for outgoing packets (int). ZMQ_TOS.</summary>
    TypeOfService = 57,
    /// <summary>Accept only ipc peers with this process id (deprecated in libzmq; use ZAP) (int, write-only). ZMQ_IPC_FILTER_PID.</summary>
    IpcFilterPid = 58,
    /// <summary>Accept only ipc peers with this user id (deprecated in libzmq; use ZAP) (int, write-only). ZMQ_IPC_FILTER_UID.</summary>
    IpcFilterUid = 59,
    /// <summary>Accept only ipc peers with this group id (deprecated in libzmq; use ZAP) (int, write-only). ZMQ_IPC_FILTER_GID.</summary>
    IpcFilterGid = 60,
    /// <summary>
    /// ROUTER/STREAM: the routing id given to the peer of the next connect (bytes, write-only; with Immediate set only a
    /// connect over inproc takes it). ZMQ_CONNECT_ROUTING_ID. An id a peer of the socket has already (one its connects
    /// gave, or on a ROUTER one a peer that connected in has, which only a libzmq with the draft API can tell, and only
    /// once libzmq has taken that peer in) makes that Connect throw <see cref="InvalidOperationException"/>: libzmq
    /// would abort the process.
    /// </summary>
    ConnectRoutingId = 61,
    /// <summary>Act as a GSSAPI server (bool). ZMQ_GSSAPI_SERVER.</summary>
    GssapiServer = 62,
    /// <summary>GSSAPI principal name (string). ZMQ_GSSAPI_PRINCIPAL.</summary>
    GssapiPrincipal = 63,
    /// <summary>GSSAPI service principal name (string). ZMQ_GSSAPI_SERVICE_PRINCIPAL.</summary>
    GssapiServicePrincipal = 64,
    /// <summary>GSSAPI without encryption (bool). ZMQ_GSSAPI_PLAINTEXT.</summary>
    GssapiPlaintext = 65,
    /// <summary>Maximum time for the ZMTP handshake (milliseconds; 0 = none). ZMQ_HANDSHAKE_IVL.</summary>
    HandshakeInterval = 66,
    /// <summary>SOCKS5 proxy address for TCP connections (string). ZMQ_SOCKS_PROXY.</summary>
    SocksProxy = 68,
    /// <summary>XPUB: block or fail sends at the high water mark instead of dropping (bool, write-only). ZMQ_XPUB_NODROP.</summary>
    XPubNoDrop = 69,
    /// <summary>XPUB: subscriptions are applied by the application (bool, write-only). ZMQ_XPUB_MANUAL.</summary>
    XPubManual = 71,
    /// <summary>XPUB: message sent to each new subscriber (bytes, write-only). ZMQ_XPUB_WELCOME_MSG.</summary>
    XPubWelcomeMessage = 72,
    /// <summary>STREAM: deliver connect and disconnect notifications (bool, write-only). ZMQ_STREAM_NOTIFY.</summary>
    StreamNotify = 73,
    /// <summary>SUB/XSUB/PUB/XPUB: invert prefix matching (bool). ZMQ_INVERT_MATCHING.</summary>
    InvertMatching = 74,
    /// <summary>Interval between ZMTP heartbeats (milliseconds; 0 = off). ZMQ_HEARTBEAT_IVL.</summary>
    HeartbeatInterval = 75,
    /// <summary>Time-to-live the peer should apply to heartbeats (milliseconds; libzmq keeps tenths of a second, so a value is rounded up to a multiple of 100). ZMQ_HEARTBEAT_TTL.</summary>
    HeartbeatTtl = 76,
    /// <summary>How long to wait for a heartbeat reply before closing the connection (milliseconds). ZMQ_HEARTBEAT_TIMEOUT.</summary>
    HeartbeatTimeout = 77,
    /// <summary>XPUB: pass every subscribe and unsubscribe message upstream (bool, write-only). ZMQ_XPUB_VERBOSER.</summary>
    XPubVerboser = 78,
    /// <summary>Timeout of a TCP connect() (milliseconds; 0 = OS default). ZMQ_CONNECT_TIMEOUT.</summary>
    ConnectTimeout = 79,
    /// <summary>TCP_USER_TIMEOUT: maximum retransmission time (milliseconds; 0 = OS default). ZMQ_TCP_MAXRT.</summary>
    TcpMaxRetransmitTimeout = 80,
    /// <summary>Whether the socket is thread-safe (bool, read-only). ZMQ_THREAD_SAFE.</summary>
    ThreadSafe = 81,
    /// <summary>Maximum multicast transport data unit in bytes (int). ZMQ_MULTICAST_MAXTPDU.</summary>
    MulticastMaxTpdu = 84,
    /// <summary>VMCI buffer size (ulong; only where libzmq was built with VMCI). ZMQ_VMCI_BUFFER_SIZE.</summary>
    VmciBufferSize = 85,
    /// <summary>VMCI minimum buffer size (ulong; only with VMCI). ZMQ_VMCI_BUFFER_MIN_SIZE.</summary>
    VmciBufferMinSize = 86,
    /// <summary>VMCI maximum buffer size (ulong; only with VMCI). ZMQ_VMCI_BUFFER_MAX_SIZE.</summary>
    VmciBufferMaxSize = 87,
    /// <summary>VMCI connect timeout (milliseconds; only with VMCI). ZMQ_VMCI_CONNECT_TIMEOUT.</summary>
    VmciConnectTimeout = 88,
    /// <summary>
    /// Use this pre-opened listening file descriptor for the next bind (int; −1 = off). ZMQ_USE_FD. From that bind on
    /// libzmq owns the descriptor and closes it with the socket: do not close it yourself (give libzmq a duplicate,
    /// <c>dup(2)</c>, of a descriptor something else closes, such as a <c>System.Net.Sockets.Socket</c>'s), or a
    /// descriptor opened later under the same number is closed instead.
    /// </summary>
    UseFd = 89,
    /// <summary>Name type of <see cref="GssapiPrincipal"/> (int). ZMQ_GSSAPI_PRINCIPAL_NAMETYPE.</summary>
    GssapiPrincipalNameType = 90,
    /// <summary>Name type of <see cref="GssapiServicePrincipal"/> (int). ZMQ_GSSAPI_SERVICE_PRINCIPAL_NAMETYPE.</summary>
    GssapiServicePrincipalNameType = 91,
    /// <summary>Bind the underlying sockets to this network interface, SO_BINDTODEVICE (string). ZMQ_BINDTODEVICE.</summary>
    BindToDevice = 92,
    /// <summary>Reject ZAP requests whose domain has no handler, instead of letting them pass (bool). ZMQ_ZAP_ENFORCE_DOMAIN.</summary>
    ZapEnforceDomain = 93,
    /// <summary>Windows: use the TCP loopback fast path for 127.0.0.1 connections (bool; no effect elsewhere). ZMQ_LOOPBACK_FASTPATH.</summary>
    LoopbackFastpath = 94,
    /// <summary>
    /// Adds a metadata property sent to peers in the handshake, given as <c>"X-Name:value"</c> (the name must start with
    /// <c>X-</c>); peers read it with <see cref="Message.GetMetadata(string)"/> (string, write-only). ZMQ_METADATA.
    /// </summary>
    Metadata = 95,
    /// <summary>UDP multicast: whether the socket receives its own multicast datagrams (bool). ZMQ_MULTICAST_LOOP.</summary>
    MulticastLoop = 96,
    /// <summary>
    /// Draft only. ROUTER: deliver an empty message from a peer when it connects (1), disconnects (2) or both (3); each
    /// arrives as the peer's routing-id frame followed by an empty frame (int). ZMQ_ROUTER_NOTIFY.
    /// </summary>
    RouterNotify = 97,
    /// <summary>XPUB: like <see cref="XPubManual"/>, and a new subscriber gets only the last value sent (bool, write-only). ZMQ_XPUB_MANUAL_LAST_VALUE.</summary>
    XPubManualLastValue = 98,
    /// <summary>User name for the SOCKS5 proxy of <see cref="SocksProxy"/> (string). ZMQ_SOCKS_USERNAME.</summary>
    SocksUsername = 99,
    /// <summary>Password for the SOCKS5 proxy of <see cref="SocksProxy"/> (string). ZMQ_SOCKS_PASSWORD.</summary>
    SocksPassword = 100,
    /// <summary>Draft only. Bytes read from the kernel in one go, per connection (int, > 0). ZMQ_IN_BATCH_SIZE.</summary>
    InBatchSize = 101,
    /// <summary>Draft only. Bytes written to the kernel in one go, per connection (int, > 0). ZMQ_OUT_BATCH_SIZE.</summary>
    OutBatchSize = 102,
    /// <summary>Draft only, and only where libzmq has the wss transport (<c>Context.Has("WSS")</c>): the server's private key, PEM (string, write-only). ZMQ_WSS_KEY_PEM.</summary>
    WssKeyPem = 103,
    /// <summary>Draft only, with wss: the server's certificate, PEM (string, write-only). ZMQ_WSS_CERT_PEM.</summary>
    WssCertPem = 104,
    /// <summary>Draft only, with wss: a certificate the client trusts, PEM (string, write-only). ZMQ_WSS_TRUST_PEM.</summary>
    WssTrustPem = 105,
    /// <summary>Draft only, with wss: the host name the client checks the server's certificate against (string, write-only). ZMQ_WSS_HOSTNAME.</summary>
    WssHostname = 106,
    /// <summary>Draft only, with wss: the client trusts the system's certificate store (bool, write-only). ZMQ_WSS_TRUST_SYSTEM.</summary>
    WssTrustSystem = 107,
    /// <summary>XPUB/XSUB: only the first frame of a multipart message is a subscription; the rest pass as data (bool, write-only). ZMQ_ONLY_FIRST_SUBSCRIBE.</summary>
    OnlyFirstSubscribe = 108,
    /// <summary>
    /// Stops reconnecting after the given failures: 1 = connection refused, 2 = handshake failed (flags, int; 0 = always
    /// reconnect). ZMQ_RECONNECT_STOP.
    /// </summary>
    ReconnectStop = 109,
    /// <summary>
    /// Draft only. A message this socket sends first on every new connection (ROUTER, DEALER, SERVER, CLIENT, PEER)
    /// (bytes, write-only). ZMQ_HELLO_MSG.
    /// </summary>
    HelloMessage = 110,
    /// <summary>
    /// Draft only. A message this socket receives, as if the peer had sent it, when a peer that connected to it
    /// disconnects (ROUTER, SERVER, PEER) (bytes, write-only). ZMQ_DISCONNECT_MSG.
    /// </summary>
    DisconnectMessage = 111,
    /// <summary>Draft only. SO_PRIORITY of the underlying sockets, where the OS has it (int, ≥ 0). ZMQ_PRIORITY.</summary>
    Priority = 112,
}
