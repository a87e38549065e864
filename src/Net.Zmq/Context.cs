using System.Runtime.CompilerServices;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq;

/// <summary>
/// A libzmq context (<c>zmq_ctx_new</c>): the container of sockets and I/O threads. Create one per process,
/// share it between threads (it is thread-safe), and dispose it last.
/// </summary>
/// <remarks>
/// <see cref="Dispose"/> never hangs on open sockets: it shuts the context down (blocking calls on its sockets
/// throw <see cref="ContextTerminatedException"/>) and returns; libzmq's context is terminated once the last
/// socket is closed. Sockets get a <see cref="DefaultLinger"/> of one second, so unsent messages delay that
/// termination by at most one second instead of forever; and <see cref="Dispose"/> waits for it at most ten
/// seconds, whatever linger a socket was given, before leaving it to a background thread.
/// </remarks>
public sealed class Context : IDisposable, IAsyncDisposable
{
    private static readonly TimeSpan s_oneSecond = TimeSpan.FromSeconds(1);
    private readonly ContextHandle _handle;
    private volatile bool _disposed;

    // The sockets created in this context (weakly: a dropped socket is not kept alive), so that Shutdown can make
    // their sends fail at once. libzmq alone notices the shutdown on a send only when it next processes its commands,
    // which a send that finds room does at most about once a millisecond.
    private readonly ConditionalWeakTable<Socket, object?> _sockets = new();
    private int _defaultLingerMs = (int)s_oneSecond.TotalMilliseconds;

    /// <summary>Creates a context with libzmq's defaults (one I/O thread, 1023 sockets).</summary>
    /// <exception cref="DllNotFoundException">libzmq could not be found; the message says where Net.Zmq looked.</exception>
    public Context()
    {
        NativeLibraryLoader.EnsureLoaded();
        nint native = LibZmq.CtxNew();
        if (native == 0)
        {
            ThrowHelper.ThrowZmq(LibZmq.Errno(), "Creating a context (zmq_ctx_new)");
        }

        _handle = new ContextHandle(native);
    }

    /// <summary>Creates a context with <paramref name="ioThreads"/> I/O threads and room for <paramref name="maxSockets"/> sockets.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is negative, or <paramref name="maxSockets"/> is zero.</exception>
    public Context(int ioThreads, int maxSockets = 1023)
        : this()
    {
        try
        {
            ArgumentOutOfRangeException.ThrowIfNegative(ioThreads);
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxSockets);
            SetOption(ContextOption.IoThreads, ioThreads);
            SetOption(ContextOption.MaxSockets, maxSockets);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>The version of the loaded libzmq (major, minor, build = patch).</summary>
    public static unsafe Version Version
    {
        get
        {
            NativeLibraryLoader.EnsureLoaded();
            int major, minor, patch;
            LibZmq.Version(&major, &minor, &patch);
            return new Version(major, minor, patch);
        }
    }

    /// <summary>
    /// Whether the loaded libzmq supports <paramref name="capability"/>: "ipc", "pgm", "tipc", "norm", "curve",
    /// "gssapi" or "draft" (<c>zmq_has</c>).
    /// </summary>
    public static unsafe bool Has(string capability)
    {
        ArgumentException.ThrowIfNullOrEmpty(capability);
        NativeLibraryLoader.EnsureLoaded();
        using var text = new Utf8Z(capability);
        fixed (byte* p = text.Bytes)
        {
            return LibZmq.Has(p) != 0;
        }
    }

    /// <summary>
    /// The <see cref="SocketOption.Linger"/> given to each socket this context creates: one second unless
    /// changed. <see cref="Timeout.InfiniteTimeSpan"/> restores libzmq's own default (wait forever).
    /// </summary>
    public TimeSpan DefaultLinger
    {
        get => _defaultLingerMs < 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(_defaultLingerMs);
        set => _defaultLingerMs = OptionValues.ToMilliseconds(value, nameof(value));
    }

    internal int DefaultLingerMilliseconds => _defaultLingerMs;

    internal ContextHandle Handle
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _handle;
        }
    }

    /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
    public bool IsDisposed => _disposed;

    /// <summary>Sets an integer context option (<c>zmq_ctx_set</c>).</summary>
    /// <exception cref="ArgumentException">The option is read-only or boolean (use the <see cref="bool"/> overload).</exception>
    /// <exception cref="ZmqException">libzmq refused the value (EINVAL).</exception>
    public void SetOption(ContextOption option, int value)
    {
        OptionInfo info = ContextOptionTable.Get(option);
        if (!info.CanWrite)
        {
            ThrowHelper.ThrowArgument($"The context option {option} is read-only.", nameof(option));
        }

        if (info.Kind == OptionKind.Boolean)
        {
            ThrowHelper.ThrowArgument($"The context option {option} is a bool; pass true or false.", nameof(value));
        }

        SetNative(option, info.Native, value);
    }

    /// <summary>Sets a boolean context option (<see cref="ContextOption.Blocky"/>, <see cref="ContextOption.Ipv6"/>).</summary>
    /// <exception cref="ArgumentException">The option is not boolean.</exception>
    public void SetOption(ContextOption option, bool value)
    {
        OptionInfo info = ContextOptionTable.Get(option);
        if (info.Kind != OptionKind.Boolean)
        {
            ThrowHelper.ThrowArgument($"The context option {option} takes an int, not a bool.", nameof(value));
        }

        SetNative(option, info.Native, value ? 1 : 0);
    }

    /// <summary>Reads a context option (<c>zmq_ctx_get</c>); boolean options read as 0 or 1.</summary>
    /// <exception cref="ArgumentException">The option is write-only.</exception>
    public int GetOption(ContextOption option)
    {
        OptionInfo info = ContextOptionTable.Get(option);
        if (!info.CanRead)
        {
            ThrowHelper.ThrowArgument($"The context option {option} is write-only.", nameof(option));
        }

        nint context = Enter();
        try
        {
            // zmq_ctx_get fails only for unknown options, which the table has ruled out; -1 is a real value
            // (ThreadSchedulingPolicy's default), so errno is not consulted.
            return LibZmq.CtxGet(context, info.Native);
        }
        finally
        {
            _handle.DangerousRelease();
        }
    }

    /// <summary>
    /// Shuts the context down (<c>zmq_ctx_shutdown</c>): blocking calls on its sockets return with
    /// <see cref="ContextTerminatedException"/>, every send made after this returns throws it, and new sockets
    /// cannot be created. Sockets must still be disposed.
    /// </summary>
    public void Shutdown()
    {
        nint context = Enter();
        try
        {
            _ = LibZmq.CtxShutdown(context); // fails only for an invalid context, and this one is held open
        }
        finally
        {
            _handle.DangerousRelease();
        }

        foreach (KeyValuePair<Socket, object?> entry in _sockets)
        {
            Socket socket = entry.Key;
            socket.RefuseSends(() => ThrowHelper.CreateZmqException(Errno.ETERM, $"Send on a {socket.Type} socket"));
        }
    }

    /// <summary>Remembers a socket created in this context, whose sends <see cref="Shutdown"/> refuses.</summary>
    internal void Track(Socket socket) => _sockets.AddOrUpdate(socket, null);

    /// <summary>
    /// Shuts the context down and releases it. Returns at once if sockets are still open (they see ETERM and
    /// the native context is terminated when the last one is disposed); otherwise waits for their linger.
    /// Calling it again does nothing.
    /// </summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        Shutdown();
        _disposed = true;
        _handle.DisposeAndTerminateInline();
    }

    /// <summary>
    /// Shuts the context down and releases it as <see cref="Dispose"/> does, without blocking the caller: libzmq's
    /// termination (<c>zmq_ctx_term</c>) runs on a thread of its own. When no socket is open any more the returned task
    /// completes once termination has finished, that is once every socket's unsent messages were delivered or their
    /// <see cref="SocketOption.Linger"/> expired, and at most ten seconds after the call; when sockets are still open it
    /// completes at once, and the context is terminated when the last of them is disposed. Calling it again does nothing.
    /// </summary>
    public ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return ValueTask.CompletedTask;
        }

        Shutdown();
        _disposed = true;
        Task? termination = _handle.DisposeAndStartTermination();
        return termination is null ? ValueTask.CompletedTask : new ValueTask(WaitForTermination(termination));
    }

    private static async Task WaitForTermination(Task termination)
    {
        using var stopDelay = new CancellationTokenSource();
        Task finished = await Task.WhenAny(termination, Task.Delay(ContextHandle.InlineTerminationLimit, stopDelay.Token)).ConfigureAwait(false);
        if (finished == termination)
        {
            await stopDelay.CancelAsync().ConfigureAwait(false);
        }
    }

    private nint Enter()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        return _handle.Enter(this);
    }

    private void SetNative(ContextOption option, int native, int value)
    {
        nint context = Enter();
        try
        {
            if (LibZmq.CtxSet(context, native, value) != 0)
            {
                int errorNumber = LibZmq.Errno();
                ThrowHelper.ThrowZmq(errorNumber, $"Setting the context option {option} to {value}");
            }
        }
        finally
        {
            _handle.DangerousRelease();
        }
    }
}
