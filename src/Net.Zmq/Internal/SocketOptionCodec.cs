using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using System.Text;
using Net.Zmq.Interop;
using Net.Zmq.Security;

namespace Net.Zmq.Internal;

/// <summary>
/// Turns the .NET values of <see cref="Socket"/>'s SetOption and GetOption overloads into the values libzmq's
/// options take and back: checks access and kind against <see cref="SocketOptionTable"/> before any native call,
/// converts, and reads values of any length. The native calls themselves are the socket's, made through
/// <see cref="INativeOptions"/>.
/// </summary>
internal static unsafe class SocketOptionCodec
{
    private const int FirstReadCapacity = 4096;

    // The longest HeartbeatTtl libzmq keeps, in milliseconds (65,535 tenths of a second); longer ones it refuses.
    private const int HeartbeatTtlMax = 6_553_500;
    private const int MaxReadCapacity = 1 << 20;

    internal static void SetInt32(INativeOptions socket, SocketOption option, int value)
    {
        OptionInfo info = ExpectWritable(option);
        switch (info.Kind)
        {
            case OptionKind.Int32 or OptionKind.Milliseconds:
                if (info.Kind == OptionKind.Milliseconds && value < 0 && !TakesInfinite(option))
                {
                    ThrowHelper.ThrowArgumentOutOfRange(nameof(value), value,
                        $"{option} takes 0 or more milliseconds: libzmq has no infinite (-1) for it, and its 0 means none or its default.");
                }

                if (option == SocketOption.HeartbeatTtl && value is > 0 and <= HeartbeatTtlMax + 99)
                {
                    // Kept in tenths of a second (at most 65,535): rounded up, so 150 ms is not cut to 100 nor 99 ms to 0 (off).
                    value = Math.Min((value + 99) / 100 * 100, HeartbeatTtlMax);
                }

                ThrowIfUseFdNotListening(option, value);
                socket.Set(option, &value, sizeof(int));
                break;
            case OptionKind.Int64:
                SetInt64(socket, option, value);
                break;
            case OptionKind.UInt64:
                ArgumentOutOfRangeException.ThrowIfNegative(value);
                SetUInt64(socket, option, (ulong)value);
                break;
            default:
                ThrowWrongKind(option, info, "an int", nameof(value));
                break;
        }
    }

    /// <summary>The millisecond options for which libzmq takes −1 (<see cref="Timeout.InfiniteTimeSpan"/>): forever, or for ReconnectInterval never.</summary>
    private static bool TakesInfinite(SocketOption option) => option is SocketOption.Linger or SocketOption.ReceiveTimeout
        or SocketOption.SendTimeout or SocketOption.ReconnectInterval or SocketOption.VmciConnectTimeout;

    internal static void SetInt64(INativeOptions socket, SocketOption option, long value)
    {
        OptionInfo info = ExpectWritable(option);
        if (info.Kind == OptionKind.UInt64)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
        }
        else if (info.Kind != OptionKind.Int64)
        {
            ThrowWrongKind(option, info, "a long", nameof(value));
        }
        else if (value < -1)
        {
            // MaxMessageSize, the one long option: libzmq takes any negative as "no limit" and reads it back as given.
            ThrowHelper.ThrowArgumentOutOfRange(nameof(value), value, $"{option} takes -1 (no limit) or a size in bytes (0 or more).");
        }

        socket.Set(option, &value, sizeof(long));
    }

    internal static void SetUInt64(INativeOptions socket, SocketOption option, ulong value)
    {
        ExpectWritable(option, OptionKind.UInt64, "a ulong", nameof(value));
        socket.Set(option, &value, sizeof(ulong));
    }

    internal static void SetBoolean(INativeOptions socket, SocketOption option, bool value)
    {
        ExpectWritable(option, OptionKind.Boolean, "a bool", nameof(value));
        int native = value ? 1 : 0;
        socket.Set(option, &native, sizeof(int));
    }

    internal static void SetTime(INativeOptions socket, SocketOption option, TimeSpan value)
    {
        ExpectWritable(option, OptionKind.Milliseconds, "a TimeSpan", nameof(value));
        SetInt32(socket, option, OptionValues.ToMilliseconds(value, nameof(value)));
    }

    internal static void SetBytes(INativeOptions socket, SocketOption option, ReadOnlySpan<byte> value)
    {
        OptionInfo info = ExpectWritable(option);
        if (info.Kind == OptionKind.CurveKey)
        {
            if (value.Length == Curve.KeyTextLength)
            {
                SetCurveKeyText(socket, option, Encoding.Latin1.GetString(value));
                return;
            }

            if (value.Length != Curve.KeyLength)
            {
                ThrowHelper.ThrowArgument(
                    $"A CURVE key is {Curve.KeyLength} bytes, or {Curve.KeyTextLength} Z85 characters; {option} was given {value.Length} bytes.", nameof(value));
            }
        }
        else if (info.Kind != OptionKind.Binary)
        {
            ThrowWrongKind(option, info, "bytes", nameof(value));
        }

        fixed (byte* p = value)
        {
            socket.Set(option, p, value.Length);
        }
    }

    /// <summary>Sets a string or a binary option as UTF-8, or a CURVE key given as Z85 text (decoded here).</summary>
    internal static void SetString(INativeOptions socket, SocketOption option, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        OptionInfo info = ExpectWritable(option);
        if (info.Kind == OptionKind.CurveKey && value.Length != Curve.KeyTextLength)
        {
            ThrowHelper.ThrowArgument(
                $"A CURVE key in text form is {Curve.KeyTextLength} Z85 characters; {option} was given {value.Length}.", nameof(value));
        }
        else if (info.Kind == OptionKind.CurveKey)
        {
            SetCurveKeyText(socket, option, value);
            return;
        }
        else if (info.Kind is not (OptionKind.String or OptionKind.Binary))
        {
            ThrowWrongKind(option, info, "a string", nameof(value));
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetByteCount(value));
        try
        {
            int length = Encoding.UTF8.GetBytes(value, rented);
            fixed (byte* p = rented)
            {
                socket.Set(option, p, length);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>
    /// A CURVE key given as Z85 text, decoded and checked here and handed to libzmq as its 32 bytes: libzmq's own
    /// decoding stops at a NUL, keeping the rest of the previous key.
    /// </summary>
    private static void SetCurveKeyText(INativeOptions socket, SocketOption option, string text)
    {
        Span<byte> key = stackalloc byte[Curve.KeyLength];
        try
        {
            Curve.DecodeKey(text, key, "value");
            fixed (byte* p = key)
            {
                socket.Set(option, p, key.Length);
            }
        }
        finally
        {
            CryptographicOperations.ZeroMemory(key);
        }
    }

    internal static T Get<T>(INativeOptions socket, SocketOption option)
    {
        OptionKind kind = ExpectReadable(option).Kind;
        // Unsafe.As instead of (T)(object) so that no value is boxed, even before the JIT optimises this method.
        if (typeof(T) == typeof(int) && kind is OptionKind.Int32 or OptionKind.Milliseconds)
        {
            int value = ReadInt32(socket, option);
            return Unsafe.As<int, T>(ref value);
        }

        if (typeof(T) == typeof(long) && kind is OptionKind.Int32 or OptionKind.Milliseconds or OptionKind.Int64 or OptionKind.FileDescriptor)
        {
            long value = kind switch
            {
                OptionKind.Int64 => ReadInt64(socket, option),
                OptionKind.FileDescriptor => ReadFileDescriptor(socket),
                _ => ReadInt32(socket, option),
            };
            return Unsafe.As<long, T>(ref value);
        }

        if (typeof(T) == typeof(nint) && kind == OptionKind.FileDescriptor)
        {
            nint value = (nint)ReadFileDescriptor(socket);
            return Unsafe.As<nint, T>(ref value);
        }

        if (typeof(T) == typeof(ulong) && kind == OptionKind.UInt64)
        {
            ulong value = (ulong)ReadInt64(socket, option);
            return Unsafe.As<ulong, T>(ref value);
        }

        if (typeof(T) == typeof(bool) && kind == OptionKind.Boolean)
        {
            bool value = ReadInt32(socket, option) != 0;
            return Unsafe.As<bool, T>(ref value);
        }

        if (typeof(T) == typeof(TimeSpan) && kind == OptionKind.Milliseconds)
        {
            int ms = ReadInt32(socket, option);
            TimeSpan value = ms < 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(ms);
            return Unsafe.As<TimeSpan, T>(ref value);
        }

        if (typeof(T) == typeof(string) && kind is OptionKind.String or OptionKind.Binary or OptionKind.CurveKey)
        {
            return (T)(object)ReadString(socket, option, kind);
        }

        if (typeof(T) == typeof(byte[]) && kind is OptionKind.Binary or OptionKind.CurveKey or OptionKind.String)
        {
            return (T)(object)ReadBytes(socket, option, kind);
        }

        ThrowHelper.ThrowArgument($"{option} holds {Describe(kind)} and cannot be read as {typeof(T).Name}.", nameof(T));
        return default!;
    }

    /// <summary>Reads a binary, string or CURVE key option into <paramref name="buffer"/>; returns its length without a string's terminating zero.</summary>
    internal static int GetBytes(INativeOptions socket, SocketOption option, Span<byte> buffer)
    {
        OptionKind kind = ExpectReadable(option).Kind;
        if (kind is not (OptionKind.Binary or OptionKind.String or OptionKind.CurveKey))
        {
            ThrowHelper.ThrowArgument($"{option} holds {Describe(kind)}; read it with GetOption<T>.", nameof(option));
        }

        fixed (byte* p = buffer)
        {
            int length = GetNative(socket, option, p, buffer.Length);
            return WithoutTerminator(kind, new ReadOnlySpan<byte>(p, length)).Length;
        }
    }

    /// <summary>Reads an int option (<see cref="Socket.Events"/>, <see cref="Socket.HasMore"/>, the int kinds).</summary>
    internal static int ReadInt32(INativeOptions socket, SocketOption option)
    {
        int value;
        GetNative(socket, option, &value, sizeof(int));
        return value;
    }

    /// <summary>Reads an option into <paramref name="capacity"/> bytes at <paramref name="value"/>; returns its size; throws when libzmq refuses.</summary>
    private static int GetNative(INativeOptions socket, SocketOption option, void* value, int capacity)
    {
        int errorNumber = socket.TryGet(option, value, capacity, out int size);
        if (errorNumber != 0)
        {
            ThrowFailed(option, errorNumber, $"Reading {option} from a {socket.Type} socket", socket.Type);
        }

        return size;
    }

    /// <summary>Throws for a failed zmq_setsockopt or zmq_getsockopt; a draft option the loaded libzmq lacks is a <see cref="NotSupportedException"/>.</summary>
    [DoesNotReturn]
    internal static void ThrowFailed(SocketOption option, int errorNumber, string operation, SocketType type)
    {
        ThrowIfUnavailable(option, errorNumber);
        if (errorNumber == Errno.EINVAL && option is SocketOption.Subscribe or SocketOption.Unsubscribe
            && type is not (SocketType.Sub or SocketType.XSub))
        {
            // libzmq answers a subscription on any other type with a bare "Invalid argument".
            throw new ZmqException(errorNumber,
                $"{operation} failed: {ThrowHelper.Describe(errorNumber)}. Only SUB and XSUB sockets subscribe; this is a {type} " +
                "socket. Subscribe on the SUB that receives (a PUB sends to every subscriber; a DISH joins groups with Join).");
        }

        ThrowHelper.ThrowZmq(errorNumber, operation);
    }

    private static OptionInfo ExpectWritable(SocketOption option)
    {
        OptionInfo info = SocketOptionTable.Get(option);
        if (!info.CanWrite)
        {
            ThrowHelper.ThrowArgument($"{option} is read-only.", nameof(option));
        }

        return info;
    }

    private static void ExpectWritable(SocketOption option, OptionKind kind, string given, string paramName)
    {
        OptionInfo info = ExpectWritable(option);
        if (info.Kind != kind)
        {
            ThrowWrongKind(option, info, given, paramName);
        }
    }

    private static OptionInfo ExpectReadable(SocketOption option)
    {
        OptionInfo info = SocketOptionTable.Get(option);
        if (!info.CanRead)
        {
            ThrowHelper.ThrowArgument($"{option} is write-only: libzmq cannot read it back.", nameof(option));
        }

        return info;
    }

    /// <summary>
    /// <see cref="SocketOption.UseFd"/> takes a descriptor that is already listening: libzmq 4.3 aborts the whole
    /// process when it binds to any other. Checked where it can be (Linux).
    /// </summary>
    private static void ThrowIfUseFdNotListening(SocketOption option, int value)
    {
        if (option == SocketOption.UseFd && value >= 0 && OperatingSystem.IsLinux() && !PosixSockets.IsListening(value))
        {
            ThrowHelper.ThrowArgument(
                $"UseFd needs a socket that is already listening (bound, then listen()); descriptor {value} is not one.", nameof(value));
        }
    }

    /// <summary>Refuses a value of the wrong kind for <paramref name="option"/>, naming the caller's parameter that holds it.</summary>
    [DoesNotReturn]
    private static void ThrowWrongKind(SocketOption option, OptionInfo info, string given, string paramName) =>
        ThrowHelper.ThrowArgument($"{option} takes {Describe(info.Kind)}, not {given}.", paramName);

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

    /// <summary>After EINVAL: a draft option the loaded libzmq does not know is a <see cref="NotSupportedException"/>.</summary>
    private static void ThrowIfUnavailable(SocketOption option, int errorNumber)
    {
        if (errorNumber != Errno.EINVAL)
        {
            return;
        }

        OptionAvailability availability = SocketOptionTable.Get(option).Availability;
        if (availability != OptionAvailability.Always && !LibZmqDraft.Available)
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

    private static long ReadInt64(INativeOptions socket, SocketOption option)
    {
        long value;
        GetNative(socket, option, &value, sizeof(long));
        return value;
    }

    private static long ReadFileDescriptor(INativeOptions socket)
    {
        // ZMQ_FD is an int on Unix and a SOCKET (pointer-sized) on Windows.
        if (OperatingSystem.IsWindows())
        {
            nint handle;
            GetNative(socket, SocketOption.FileDescriptor, &handle, sizeof(nint));
            return handle;
        }

        return ReadInt32(socket, SocketOption.FileDescriptor);
    }

    private static string ReadString(INativeOptions socket, SocketOption option, OptionKind kind)
    {
        if (kind == OptionKind.CurveKey)
        {
            Span<byte> key = stackalloc byte[Curve.KeyLength];
            ReadCurveKey(socket, option, key);
            return Z85.Encode(key);
        }

        return ReadVariable(socket, option, kind, static value => Encoding.UTF8.GetString(value));
    }

    private static byte[] ReadBytes(INativeOptions socket, SocketOption option, OptionKind kind)
    {
        if (kind == OptionKind.CurveKey)
        {
            var key = new byte[Curve.KeyLength];
            ReadCurveKey(socket, option, key);
            return key;
        }

        return ReadVariable(socket, option, kind, static value => value.ToArray());
    }

    /// <summary>Reads a CURVE key in its binary form, which libzmq gives when asked for 32 bytes.</summary>
    private static void ReadCurveKey(INativeOptions socket, SocketOption option, Span<byte> key)
    {
        fixed (byte* p = key)
        {
            GetNative(socket, option, p, Curve.KeyLength);
        }
    }

    private delegate T SpanConverter<T>(ReadOnlySpan<byte> value);

    /// <summary>
    /// Reads a string or binary option of any length: libzmq answers EINVAL, without the size, when the buffer is too
    /// small, so the buffer doubles until the value fits (or it is clear EINVAL means something else).
    /// </summary>
    private static T ReadVariable<T>(INativeOptions socket, SocketOption option, OptionKind kind, SpanConverter<T> convert)
    {
        for (int capacity = FirstReadCapacity; ; capacity *= 2)
        {
            byte[] rented = ArrayPool<byte>.Shared.Rent(capacity);
            try
            {
                fixed (byte* p = rented)
                {
                    int errorNumber = socket.TryGet(option, p, capacity, out int length);
                    if (errorNumber == Errno.EINVAL && capacity < MaxReadCapacity)
                    {
                        continue;
                    }

                    if (errorNumber != 0)
                    {
                        ThrowHelper.ThrowZmq(errorNumber, $"Reading {option} from a {socket.Type} socket");
                    }

                    return convert(WithoutTerminator(kind, new ReadOnlySpan<byte>(p, length)));
                }
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    /// <summary>libzmq ends a string option with a zero byte; the .NET value does not include it.</summary>
    private static ReadOnlySpan<byte> WithoutTerminator(OptionKind kind, ReadOnlySpan<byte> value) =>
        kind == OptionKind.String && value.Length > 0 && value[^1] == 0 ? value[..^1] : value;
}
