using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

public sealed partial class Socket : INativeOptions
{
    /// <summary>Sets an option that takes an int: int, millisecond, long and ulong options (<c>zmq_setsockopt</c>).</summary>
    /// <exception cref="ArgumentException">The option is read-only or of another kind (bool, bytes, string).</exception>
    /// <exception cref="ArgumentOutOfRangeException">A negative value for an unsigned option.</exception>
    /// <exception cref="ArgumentException"><see cref="SocketOption.UseFd"/> given a descriptor that is not a listening socket (checked on Linux).</exception>
    /// <exception cref="ZmqException">libzmq refused the value (EINVAL: out of range or not valid for this socket type).</exception>
    /// <exception cref="NotSupportedException">A draft-only option (see <see cref="SocketOption"/>) and the loaded libzmq has no draft API; the same holds for every SetOption and GetOption overload.</exception>
    /// <exception cref="InvalidOperationException">A security option (PLAIN, CURVE, ZAP, GSSAPI) once the socket has been bound or connected: libzmq would apply it only to later endpoints. Or one on a socket without ZeroMQ's handshake (a Stream, a Router set to RouterRaw), or RouterRaw on a socket with one: libzmq would run no security there at all. The same holds for every SetOption overload.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A negative time for a millisecond option libzmq has no infinite for (all but Linger, ReceiveTimeout, SendTimeout, ReconnectInterval and VmciConnectTimeout).</exception>
    public void SetOption(SocketOption option, int value) => SocketOptionCodec.SetInt32(this, option, value);

    /// <summary>Sets an option that takes a long (<see cref="SocketOption.MaxMessageSize"/>) or a ulong.</summary>
    /// <exception cref="ArgumentException">The option is read-only or of another kind.</exception>
    public void SetOption(SocketOption option, long value) => SocketOptionCodec.SetInt64(this, option, value);

    /// <summary>Sets an option that takes a ulong (<see cref="SocketOption.Affinity"/>, the VMCI sizes).</summary>
    /// <exception cref="ArgumentException">The option is read-only or of another kind.</exception>
    public void SetOption(SocketOption option, ulong value) => SocketOptionCodec.SetUInt64(this, option, value);

    /// <summary>Sets a boolean option.</summary>
    /// <exception cref="ArgumentException">The option is read-only or not boolean.</exception>
    public void SetOption(SocketOption option, bool value) => SocketOptionCodec.SetBoolean(this, option, value);

    /// <summary>Sets a time option; <see cref="Timeout.InfiniteTimeSpan"/> means −1 (infinite).</summary>
    /// <exception cref="ArgumentException">The option is read-only or not a time.</exception>
    /// <exception cref="ArgumentOutOfRangeException">Negative (other than infinite) or more than int.MaxValue milliseconds; or infinite for an option libzmq has no infinite for (all but Linger, ReceiveTimeout, SendTimeout and ReconnectInterval). A fraction of a millisecond counts as a whole one.</exception>
    public void SetOption(SocketOption option, TimeSpan value) => SocketOptionCodec.SetTime(this, option, value);

    /// <summary>
    /// Sets a binary option (<see cref="SocketOption.RoutingId"/>, <see cref="SocketOption.Subscribe"/>, ...) or a CURVE
    /// key given as 32 bytes or as the 40 ASCII bytes of its Z85 text.
    /// </summary>
    /// <exception cref="ArgumentException">The option is read-only or not binary, or a CURVE key has the wrong length or is not valid Z85 text.</exception>
    public void SetOption(SocketOption option, ReadOnlySpan<byte> value) => SocketOptionCodec.SetBytes(this, option, value);

    /// <summary>Sets a binary option or a CURVE key from an array; see <see cref="SetOption(SocketOption, ReadOnlySpan{byte})"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null.</exception>
    public void SetOption(SocketOption option, byte[] value)
    {
        ArgumentNullException.ThrowIfNull(value);
        SetOption(option, value.AsSpan());
    }

    /// <summary>
    /// Sets a string option (<see cref="SocketOption.ZapDomain"/>, <see cref="SocketOption.PlainUsername"/>, ...), a CURVE key
    /// in Z85 text (40 characters), or a binary option from the UTF-8 bytes of <paramref name="value"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null.</exception>
    /// <exception cref="ArgumentException">The option is read-only or takes a number, or a Z85 key is not 40 characters of valid Z85 text.</exception>
    public void SetOption(SocketOption option, string value) => SocketOptionCodec.SetString(this, option, value);

    /// <summary>
    /// Reads an option as <typeparamref name="T"/> (<c>zmq_getsockopt</c>): <see cref="int"/> or <see cref="long"/> for
    /// numbers and milliseconds, <see cref="ulong"/>, <see cref="bool"/>, <see cref="TimeSpan"/> for times,
    /// <see cref="string"/> for strings, Z85 CURVE keys and UTF-8 binary values, <c>byte[]</c> for binary values and
    /// 32-byte CURVE keys, <see cref="nint"/> or <see cref="long"/> for <see cref="SocketOption.FileDescriptor"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The option is write-only, or <typeparamref name="T"/> does not fit its kind.</exception>
    /// <exception cref="ZmqException">libzmq refused (EINVAL: not available on this socket type or build).</exception>
    /// <exception cref="NotSupportedException">A draft-only option and the loaded libzmq has no draft API.</exception>
    public T GetOption<T>(SocketOption option) => SocketOptionCodec.Get<T>(this, option);

    /// <summary>Reads a binary or string option into <paramref name="buffer"/> without allocating; returns its length in bytes.</summary>
    /// <exception cref="ArgumentException">The option is write-only or numeric.</exception>
    /// <exception cref="ZmqException">EINVAL: the buffer is too small for the value.</exception>
    public int GetOption(SocketOption option, Span<byte> buffer) => SocketOptionCodec.GetBytes(this, option, buffer);

    // The libzmq side of the options: each native call is a call on the socket, in its own SocketCall scope.

    unsafe void INativeOptions.Set(SocketOption option, void* value, int size)
    {
        using SocketCall call = BeginCall();
        if (_boundOrConnected && IsSecurityOption(option))
        {
            throw new InvalidOperationException(
                $"{option} set after this {Type} socket was bound or connected would not apply to those endpoints (libzmq " +
                "sets up their security as they are made), leaving them open: set security options before Bind and Connect, " +
                "or use a new socket.");
        }

        bool raw = option == SocketOption.RouterRaw && *(int*)value != 0;
        if ((IsSecurityOption(option) && (Type == SocketType.Stream || _routerRaw)) || (raw && HasSecurity()))
        {
            string what = Type == SocketType.Stream ? "a Stream socket" : raw ? "a Router socket that has security options" : "a raw Router socket";
            throw new InvalidOperationException(
                $"{option} on {what} would not secure it: the connections of a Stream or a raw Router carry raw bytes " +
                "without ZeroMQ's handshake, so libzmq runs no security mechanism and asks no ZAP handler on them, and every " +
                "peer would be admitted. Secure that traffic another way (TLS in front of it), or use a ZeroMQ socket type.");
        }

        if (LibZmq.SetSockOpt(call.Native, (int)option, value, (nuint)size) != 0)
        {
            SocketOptionCodec.ThrowFailed(option, LibZmq.Errno(), $"Setting {option} on a {Type} socket", Type);
        }

        _routerRaw |= raw; // libzmq keeps a Router raw once set, whatever is set after

        if (option == SocketOption.Conflate)
        {
            ConflateChanged(*(int*)value != 0); // a boolean option: always an int
        }
        else if (option == SocketOption.ConnectRoutingId && Type is SocketType.Router or SocketType.Stream)
        {
            _pendingConnectId = new ReadOnlySpan<byte>(value, size).ToArray(); // checked by the next Connect
        }
    }

    /// <summary>Whether a security mechanism or a ZAP domain is set (under the caller's call).</summary>
    private bool HasSecurity() =>
        ReadInt32(SocketOption.Mechanism) != (int)SecurityMechanism.Null || GetOption<string>(SocketOption.ZapDomain).Length != 0;

    /// <summary>The options that choose or configure the security mechanism, which libzmq copies into each endpoint as it is made.</summary>
    private static bool IsSecurityOption(SocketOption option) => option is SocketOption.PlainServer or SocketOption.PlainUsername
        or SocketOption.PlainPassword or SocketOption.CurveServer or SocketOption.CurvePublicKey or SocketOption.CurveSecretKey
        or SocketOption.CurveServerKey or SocketOption.ZapDomain or SocketOption.ZapEnforceDomain or SocketOption.GssapiServer
        or SocketOption.GssapiPrincipal or SocketOption.GssapiServicePrincipal or SocketOption.GssapiPlaintext
        or SocketOption.GssapiPrincipalNameType or SocketOption.GssapiServicePrincipalNameType;

    internal int ReadInt32(SocketOption option) => SocketOptionCodec.ReadInt32(this, option);

    unsafe int INativeOptions.TryGet(SocketOption option, void* value, int capacity, out int size)
    {
        using SocketCall call = BeginCall();
        nuint length = (nuint)capacity;
        while (LibZmq.GetSockOpt(call.Native, (int)option, value, &length) != 0)
        {
            int errorNumber = LibZmq.Errno();
            if (ErrnoPolicy.Classify(errorNumber, dontWait: false) != AfterFailure.Retry)
            {
                size = 0;
                return errorNumber;
            }

            length = (nuint)capacity;
        }

        size = (int)length;
        return 0;
    }
}
