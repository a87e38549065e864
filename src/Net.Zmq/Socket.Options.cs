using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using Net.Zmq.Internal;
using Net.Zmq.Interop;
using Net.Zmq.Security;

namespace Net.Zmq;

public sealed partial class Socket
{
    /// <summary>Sets an option that takes an int: int, millisecond, long and ulong options (<c>zmq_setsockopt</c>).</summary>
    /// <exception cref="ArgumentException">The option is read-only or of another kind (bool, bytes, string).</exception>
    /// <exception cref="ArgumentOutOfRangeException">A negative value for an unsigned option.</exception>
    /// <exception cref="ArgumentException"><see cref="SocketOption.UseFd"/> given a descriptor that is not a listening socket (checked on Linux).</exception>
    /// <exception cref="ZmqException">libzmq refused the value (EINVAL: out of range or not valid for this socket type).</exception>
    /// <exception cref="NotSupportedException">A draft-only option (see <see cref="SocketOption"/>) and the loaded libzmq has no draft API; the same holds for every SetOption and GetOption overload.</exception>
    public unsafe void SetOption(SocketOption option, int value)
    {
        SocketOptionInfo info = ExpectWritable(option);
        switch (info.Kind)
        {
            case OptionKind.Int32 or OptionKind.Milliseconds:
                if (option == SocketOption.UseFd && value >= 0 && OperatingSystem.IsLinux() && !PosixSockets.IsListening(value))
                {
                    // libzmq 4.3 aborts the whole process when it binds to such a descriptor.
                    ThrowHelper.ThrowArgument(
                        $"UseFd needs a socket that is already listening (bound, then listen()); descriptor {value} is not one.", nameof(value));
                }

                SetNative(option, &value, sizeof(int));
                break;
            case OptionKind.Int64:
                SetOption(option, (long)value);
                break;
            case OptionKind.UInt64:
                ArgumentOutOfRangeException.ThrowIfNegative(value);
                SetOption(option, (ulong)value);
                break;
            default:
                ThrowWrongKind(option, info, "an int");
                break;
        }
    }

    /// <summary>Sets an option that takes a long (<see cref="SocketOption.MaxMessageSize"/>) or a ulong.</summary>
    /// <exception cref="ArgumentException">The option is read-only or of another kind.</exception>
    public unsafe void SetOption(SocketOption option, long value)
    {
        SocketOptionInfo info = ExpectWritable(option);
        if (info.Kind == OptionKind.UInt64)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
        }
        else if (info.Kind != OptionKind.Int64)
        {
            ThrowWrongKind(option, info, "a long");
        }

        SetNative(option, &value, sizeof(long));
    }

    /// <summary>Sets an option that takes a ulong (<see cref="SocketOption.Affinity"/>, the VMCI sizes).</summary>
    /// <exception cref="ArgumentException">The option is read-only or of another kind.</exception>
    public unsafe void SetOption(SocketOption option, ulong value)
    {
        SocketOptionInfo info = ExpectWritable(option);
        if (info.Kind != OptionKind.UInt64)
        {
            ThrowWrongKind(option, info, "a ulong");
        }

        SetNative(option, &value, sizeof(ulong));
    }

    /// <summary>Sets a boolean option.</summary>
    /// <exception cref="ArgumentException">The option is read-only or not boolean.</exception>
    public unsafe void SetOption(SocketOption option, bool value)
    {
        SocketOptionInfo info = ExpectWritable(option);
        if (info.Kind != OptionKind.Boolean)
        {
            ThrowWrongKind(option, info, "a bool");
        }

        int native = value ? 1 : 0;
        SetNative(option, &native, sizeof(int));
    }

    /// <summary>Sets a time option; <see cref="Timeout.InfiniteTimeSpan"/> means −1 (infinite).</summary>
    /// <exception cref="ArgumentException">The option is read-only or not a time.</exception>
    /// <exception cref="ArgumentOutOfRangeException">Negative (other than infinite) or more than int.MaxValue milliseconds.</exception>
    public void SetOption(SocketOption option, TimeSpan value)
    {
        SocketOptionInfo info = ExpectWritable(option);
        if (info.Kind != OptionKind.Milliseconds)
        {
            ThrowWrongKind(option, info, "a TimeSpan");
        }

        SetOption(option, OptionValues.ToMilliseconds(value, nameof(value)));
    }

    /// <summary>
    /// Sets a binary option (<see cref="SocketOption.RoutingId"/>, <see cref="SocketOption.Subscribe"/>, ...) or a CURVE
    /// key given as 32 bytes or as the 40 ASCII bytes of its Z85 text.
    /// </summary>
    /// <exception cref="ArgumentException">The option is read-only or not binary, or a CURVE key has the wrong length.</exception>
    public unsafe void SetOption(SocketOption option, ReadOnlySpan<byte> value)
    {
        SocketOptionInfo info = ExpectWritable(option);
        if (info.Kind == OptionKind.CurveKey)
        {
            if (value.Length != Curve.KeyLength && value.Length != Curve.KeyTextLength)
            {
                ThrowHelper.ThrowArgument(
                    $"A CURVE key is {Curve.KeyLength} bytes, or {Curve.KeyTextLength} Z85 characters; {option} was given {value.Length} bytes.", nameof(value));
            }
        }
        else if (info.Kind != OptionKind.Binary)
        {
            ThrowWrongKind(option, info, "bytes");
        }

        fixed (byte* p = value)
        {
            SetNative(option, p, value.Length);
        }
    }

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
    /// <exception cref="ArgumentException">The option is read-only or takes a number, or a Z85 key is not 40 characters.</exception>
    public unsafe void SetOption(SocketOption option, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        SocketOptionInfo info = ExpectWritable(option);
        if (info.Kind == OptionKind.CurveKey && value.Length != Curve.KeyTextLength)
        {
            ThrowHelper.ThrowArgument(
                $"A CURVE key in text form is {Curve.KeyTextLength} Z85 characters; {option} was given {value.Length}.", nameof(value));
        }
        else if (info.Kind is not (OptionKind.String or OptionKind.Binary or OptionKind.CurveKey))
        {
            ThrowWrongKind(option, info, "a string");
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetByteCount(value));
        try
        {
            int length = Encoding.UTF8.GetBytes(value, rented);
            fixed (byte* p = rented)
            {
                SetNative(option, p, length);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>
    /// Reads an option as <typeparamref name="T"/> (<c>zmq_getsockopt</c>): <see cref="int"/> or <see cref="long"/> for
    /// numbers and milliseconds, <see cref="ulong"/>, <see cref="bool"/>, <see cref="TimeSpan"/> for times,
    /// <see cref="string"/> for strings, Z85 CURVE keys and UTF-8 binary values, <c>byte[]</c> for binary values and
    /// 32-byte CURVE keys, <see cref="nint"/> or <see cref="long"/> for <see cref="SocketOption.FileDescriptor"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The option is write-only, or <typeparamref name="T"/> does not fit its kind.</exception>
    /// <exception cref="ZmqException">libzmq refused (EINVAL: not available on this socket type or build).</exception>
    /// <exception cref="NotSupportedException">A draft-only option and the loaded libzmq has no draft API.</exception>
    public unsafe T GetOption<T>(SocketOption option)
    {
        SocketOptionInfo info = ExpectReadable(option);
        OptionKind kind = info.Kind;
        // Unsafe.As instead of (T)(object) so that no value is boxed, even before the JIT optimises this method.
        if (typeof(T) == typeof(int) && kind is OptionKind.Int32 or OptionKind.Milliseconds)
        {
            int value = ReadInt32(option);
            return Unsafe.As<int, T>(ref value);
        }

        if (typeof(T) == typeof(long) && kind is OptionKind.Int32 or OptionKind.Milliseconds or OptionKind.Int64 or OptionKind.FileDescriptor)
        {
            long value = kind switch
            {
                OptionKind.Int64 => ReadInt64(option),
                OptionKind.FileDescriptor => ReadFileDescriptor(),
                _ => ReadInt32(option),
            };
            return Unsafe.As<long, T>(ref value);
        }

        if (typeof(T) == typeof(nint) && kind == OptionKind.FileDescriptor)
        {
            nint value = (nint)ReadFileDescriptor();
            return Unsafe.As<nint, T>(ref value);
        }

        if (typeof(T) == typeof(ulong) && kind == OptionKind.UInt64)
        {
            ulong value = (ulong)ReadInt64(option);
            return Unsafe.As<ulong, T>(ref value);
        }

        if (typeof(T) == typeof(bool) && kind == OptionKind.Boolean)
        {
            bool value = ReadInt32(option) != 0;
            return Unsafe.As<bool, T>(ref value);
        }

        if (typeof(T) == typeof(TimeSpan) && kind == OptionKind.Milliseconds)
        {
            int ms = ReadInt32(option);
            TimeSpan value = ms < 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(ms);
            return Unsafe.As<TimeSpan, T>(ref value);
        }

        if (typeof(T) == typeof(string) && kind is OptionKind.String or OptionKind.Binary or OptionKind.CurveKey)
        {
            return (T)(object)ReadString(option, kind);
        }

        if (typeof(T) == typeof(byte[]) && kind is OptionKind.Binary or OptionKind.CurveKey or OptionKind.String)
        {
            return (T)(object)ReadBytes(option, kind);
        }

        ThrowHelper.ThrowArgument(
            $"{option} holds {Describe(kind)} and cannot be read as {typeof(T).Name}.", nameof(T));
        return default!;
    }

    /// <summary>Reads a binary or string option into <paramref name="buffer"/> without allocating; returns its length in bytes.</summary>
    /// <exception cref="ArgumentException">The option is write-only or numeric.</exception>
    /// <exception cref="ZmqException">EINVAL: the buffer is too small for the value.</exception>
    public unsafe int GetOption(SocketOption option, Span<byte> buffer)
    {
        SocketOptionInfo info = ExpectReadable(option);
        if (info.Kind is not (OptionKind.Binary or OptionKind.String or OptionKind.CurveKey))
        {
            ThrowHelper.ThrowArgument($"{option} holds {Describe(info.Kind)}; read it with GetOption<T>.", nameof(option));
        }

        fixed (byte* p = buffer)
        {
            int length = GetNative(option, p, buffer.Length);
            return info.Kind == OptionKind.String && length > 0 && p[length - 1] == 0 ? length - 1 : length;
        }
    }

    private SocketOptionInfo ExpectWritable(SocketOption option)
    {
        SocketOptionInfo info = SocketOptionInfo.Get(option);
        if ((info.Access & OptionAccess.Write) == 0)
        {
            ThrowHelper.ThrowArgument($"{option} is read-only.", nameof(option));
        }

        return info;
    }

    private static SocketOptionInfo ExpectReadable(SocketOption option)
    {
        SocketOptionInfo info = SocketOptionInfo.Get(option);
        if ((info.Access & OptionAccess.Read) == 0)
        {
            ThrowHelper.ThrowArgument($"{option} is write-only: libzmq cannot read it back.", nameof(option));
        }

        return info;
    }

    private static void ThrowWrongKind(SocketOption option, SocketOptionInfo info, string given) =>
        ThrowHelper.ThrowArgument($"{option} takes {Describe(info.Kind)}, not {given}.", "value");

    private static string Describe(OptionKind kind) => kind switch
    {
        OptionKind.Int32 => "an int",
        OptionKind.Int64 => "a long",
        OptionKind.UInt64 => "a ulong",
        OptionKind.Boolean => "a bool",
        OptionKind.Milliseconds => "a time (int milliseconds or TimeSpan)",
        OptionKind.Binary => "bytes",
        OptionKind.String => "a string",
        OptionKind.CurveKey => $"a CURVE key ({Curve.KeyLength} bytes or {Curve.KeyTextLength} Z85 characters)",
        OptionKind.FileDescriptor => "a file descriptor (long or nint)",
        _ => "an unknown kind",
    };

    private unsafe int ReadInt32(SocketOption option)
    {
        int value;
        GetNative(option, &value, sizeof(int));
        return value;
    }

    private unsafe long ReadInt64(SocketOption option)
    {
        long value;
        GetNative(option, &value, sizeof(long));
        return value;
    }

    private unsafe long ReadFileDescriptor()
    {
        // ZMQ_FD is an int on Unix and a SOCKET (pointer-sized) on Windows.
        if (OperatingSystem.IsWindows())
        {
            nint socket;
            GetNative(SocketOption.FileDescriptor, &socket, sizeof(nint));
            return socket;
        }

        return ReadInt32(SocketOption.FileDescriptor);
    }

    private unsafe string ReadString(SocketOption option, OptionKind kind)
    {
        if (kind == OptionKind.CurveKey)
        {
            Span<byte> key = stackalloc byte[Curve.KeyLength];
            ReadCurveKey(option, key);
            return Z85.Encode(key);
        }

        return ReadVariable(option, kind, static value => Encoding.UTF8.GetString(value));
    }

    private unsafe byte[] ReadBytes(SocketOption option, OptionKind kind)
    {
        if (kind == OptionKind.CurveKey)
        {
            var key = new byte[Curve.KeyLength];
            ReadCurveKey(option, key);
            return key;
        }

        return ReadVariable(option, kind, static value => value.ToArray());
    }

    /// <summary>Reads a CURVE key in its binary form, which libzmq gives when asked for 32 bytes.</summary>
    private unsafe void ReadCurveKey(SocketOption option, Span<byte> key)
    {
        fixed (byte* p = key)
        {
            GetNative(option, p, Curve.KeyLength);
        }
    }

    private delegate T SpanConverter<T>(ReadOnlySpan<byte> value);

    /// <summary>
    /// Reads a string or binary option of any length: libzmq answers EINVAL, without the size, when the buffer is too
    /// small, so the buffer doubles until the value fits (or it is clear EINVAL means something else).
    /// </summary>
    private unsafe T ReadVariable<T>(SocketOption option, OptionKind kind, SpanConverter<T> convert)
    {
        const int MaxCapacity = 1 << 20;
        for (int capacity = 4096; ; capacity *= 2)
        {
            byte[] rented = ArrayPool<byte>.Shared.Rent(capacity);
            try
            {
                fixed (byte* p = rented)
                {
                    int errorNumber = TryGetNative(option, p, capacity, out int length);
                    if (errorNumber == ZmqError.EINVAL && capacity < MaxCapacity)
                    {
                        continue;
                    }

                    if (errorNumber != 0)
                    {
                        ThrowHelper.ThrowZmq(errorNumber, $"Reading {option} from a {Type} socket");
                    }

                    if (kind == OptionKind.String && length > 0 && p[length - 1] == 0)
                    {
                        length--;
                    }

                    return convert(new ReadOnlySpan<byte>(p, length));
                }
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    private unsafe void SetNative(SocketOption option, void* value, int size)
    {
        using SocketCall call = BeginCall();
        nint socket = call.Native;
        if (LibZmq.SetSockOpt(socket, (int)option, value, (nuint)size) != 0)
        {
            int errorNumber = LibZmq.Errno();
            ThrowIfUnavailable(option, errorNumber);
            ThrowHelper.ThrowZmq(errorNumber, $"Setting {option} on a {Type} socket");
        }
    }

    private unsafe int GetNative(SocketOption option, void* value, int capacity)
    {
        int errorNumber = TryGetNative(option, value, capacity, out int size);
        if (errorNumber != 0)
        {
            ThrowIfUnavailable(option, errorNumber);
            ThrowHelper.ThrowZmq(errorNumber, $"Reading {option} from a {Type} socket");
        }

        return size;
    }

    /// <summary>After EINVAL: a draft option the loaded libzmq does not know is a <see cref="NotSupportedException"/>.</summary>
    private static void ThrowIfUnavailable(SocketOption option, int errorNumber)
    {
        if (errorNumber != ZmqError.EINVAL)
        {
            return;
        }

        OptionAvailability availability = SocketOptionInfo.Get(option).Availability;
        if (availability != OptionAvailability.Always && !Context.Has("draft"))
        {
            ThrowHelper.ThrowDraftMissing($"SocketOption.{option}");
        }

        if (availability == OptionAvailability.Wss && !Context.Has("WSS"))
        {
            throw new NotSupportedException(
                $"SocketOption.{option} needs a libzmq built with the wss transport (websockets over TLS); the loaded libzmq " +
                $"{Context.Version} has the draft API but no wss. Context.Has(\"WSS\") tells in advance.");
        }
    }

    /// <summary>Reads an option into <paramref name="value"/>; returns 0, or the error number (EINTR is retried).</summary>
    private unsafe int TryGetNative(SocketOption option, void* value, int capacity, out int size)
    {
        using SocketCall call = BeginCall();
        nint socket = call.Native;
        nuint length = (nuint)capacity;
        while (LibZmq.GetSockOpt(socket, (int)option, value, &length) != 0)
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
