using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// What a socket needs once it has been used asynchronously: its two reusable operations, its registration with
/// the <see cref="SocketReactor"/>, and the gate that keeps libzmq calls on the socket one at a time.
/// </summary>
/// <remarks>
/// Every libzmq call on the socket — the reactor's, an async call's first attempt, and from then on every
/// synchronous call (through <see cref="EnterSync"/>) — runs inside the gate. The reactor never waits for the gate:
/// when it is taken it leaves a request, and whoever holds the gate pumps on the way out. After any call, if an
/// operation is parked, the socket is pumped, which ends by reading <c>ZMQ_EVENTS</c>: a send can make a socket
/// readable, and libzmq signals <c>ZMQ_FD</c> again only after its pending commands were drained that way.
/// </remarks>
internal sealed unsafe class SocketAsyncState
{
    private const int ZmqEvents = (int)SocketOption.Events;

    private static readonly object s_creation = new();

    // The handle and type, never the Socket: the reactor roots this state, and a Socket dropped without Dispose must
    // stay collectible (its SocketAsyncStateCollector then disposes this state, and the handle's finalizer closes it).
    private readonly SocketHandle _handle;
    private readonly SocketType _type;
    private readonly object _gate = new();
    private readonly nint _fd;
    private int _slot = -1;
    private const int PumpWaitMilliseconds = 5;

    private int _pumpRequested;
    private bool _pumping;
    private int _disposed;

    private SocketAsyncState(Socket socket, nint fd)
    {
        _handle = socket.Handle;
        _type = socket.Type;
        _fd = fd;
        _receive = new SocketOperation(this, "receive");
        _send = new SocketOperation(this, "send");
    }

    // Replaced only when the operation was completed by cancellation and its ValueTask never awaited (see Fresh).
    private SocketOperation _receive;
    private SocketOperation _send;

    internal SocketOperation Receive => Volatile.Read(ref _receive);

    internal SocketOperation Send => Volatile.Read(ref _send);

    /// <summary>The receive operation to claim for a new call.</summary>
    internal SocketOperation NextReceive => Fresh(ref _receive);

    /// <summary>The send operation to claim for a new call.</summary>
    internal SocketOperation NextSend => Fresh(ref _send);

    internal SocketType SocketType => _type;

    internal bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>Held while a socket's state is created, and while a Poller or a proxy takes or gives back its hold on a socket.</summary>
    internal static object CreationLock => s_creation;

    /// <summary>
    /// Creates the state of <paramref name="socket"/> once, registers it with the reactor, and puts the collector that
    /// disposes it if the socket is dropped undisposed in <paramref name="collector"/>.
    /// </summary>
    internal static SocketAsyncState GetOrCreate(Socket socket, ref SocketAsyncState? field, ref SocketAsyncStateCollector? collector)
    {
        lock (s_creation)
        {
            if (field is { } existing)
            {
                return existing;
            }

            socket.ThrowIfHeldForPolling();
            SocketReactor reactor = SocketReactor.Instance;
            var state = new SocketAsyncState(socket, socket.GetOption<nint>(SocketOption.FileDescriptor));
            state._slot = reactor.Register(state, state._fd);
            collector = new SocketAsyncStateCollector(state);
            Interlocked.Exchange(ref field, state);
            if (socket.IsDisposed)
            {
                // Disposed while this was registering: Socket.Dispose may have looked before the state was published.
                state.Dispose();
            }

            return state;
        }
    }

    /// <summary>
    /// The operation in <paramref name="field"/>, or a new one in its place when it was completed by cancellation and
    /// nobody took the result: its ValueTask keeps the old object (awaiting it later still throws the cancellation),
    /// and the direction is free again. Allocates only then, never on the hot path.
    /// </summary>
    private SocketOperation Fresh(ref SocketOperation field)
    {
        SocketOperation operation = Volatile.Read(ref field);
        if (!operation.IsCancelledAndUnobserved)
        {
            return operation;
        }

        var fresh = new SocketOperation(this, operation.Name);
        SocketOperation current = Interlocked.CompareExchange(ref field, fresh, operation);
        return current == operation ? fresh : current;
    }

    internal ObjectDisposedException CreateDisposedException() => new(typeof(Socket).FullName, "The socket was disposed while the operation waited.");

    /// <summary>Runs a claimed and prepared operation whose result is a count (bytes or frames).</summary>
    internal ValueTask<int> RunForCount(SocketOperation operation, CancellationToken cancellationToken)
    {
        short version = operation.Version;
        if (!TryFinishAtOnce(operation, cancellationToken, out int result, out Exception? error))
        {
            return new ValueTask<int>(operation, version);
        }

        return error is null ? new ValueTask<int>(result) : ValueTask.FromException<int>(error);
    }

    /// <summary>Runs a claimed and prepared operation whose caller needs no result.</summary>
    internal ValueTask Run(SocketOperation operation, CancellationToken cancellationToken)
    {
        short version = operation.Version;
        if (!TryFinishAtOnce(operation, cancellationToken, out _, out Exception? error))
        {
            return new ValueTask(operation, version);
        }

        return error is null ? ValueTask.CompletedTask : ValueTask.FromException(error);
    }

    /// <summary>
    /// Tries the operation at once if the socket is free (no allocation, no thread switch); otherwise, or when the
    /// socket is not ready, parks it until the reactor finds the socket ready and returns false.
    /// </summary>
    private bool TryFinishAtOnce(SocketOperation operation, CancellationToken cancellationToken, out int result, out Exception? error)
    {
        result = 0;
        error = null;
        if (!TryEnterGateForCall())
        {
            // Whoever holds the gate pumps when it leaves, and will find this operation parked.
            operation.Park(cancellationToken);
            Pump();
            return false;
        }

        bool finished;
        try
        {
            finished = TryExecute(operation, out result, out error);
            if (!finished)
            {
                operation.Park(cancellationToken);
            }
        }
        finally
        {
            ExitGate();
        }

        if (finished)
        {
            operation.Release();
        }

        return finished;
    }

    /// <summary>Tries the parked operations as far as the socket allows; called by the reactor when <c>ZMQ_FD</c> signals.</summary>
    /// <returns>False when another thread held the gate, so the pump was left to it.</returns>
    internal bool Pump()
    {
        Interlocked.Exchange(ref _pumpRequested, 1);
        bool pumped = false;
        while (Monitor.TryEnter(_gate))
        {
            pumped = true;
            try
            {
                Volatile.Write(ref _pumpRequested, 0);
                PumpInsideGate();
            }
            finally
            {
                Monitor.Exit(_gate);
            }

            Interlocked.MemoryBarrier();
            if (Volatile.Read(ref _pumpRequested) == 0)
            {
                return true;
            }
        }

        return pumped;
    }

    /// <summary>Serialises a synchronous call with the asynchronous machinery.</summary>
    internal void EnterSync() => Monitor.Enter(_gate);

    /// <summary>Ends a synchronous call; pumps if an operation waits, since the call may have consumed the socket's signal.</summary>
    internal void ExitSync()
    {
        // The state may have been created while this call was already inside libzmq; then it never took the gate.
        if (Monitor.IsEntered(_gate))
        {
            ExitGate();
        }
    }

    /// <summary>Fails the parked operations with <see cref="ObjectDisposedException"/> and stops watching the socket.</summary>
    internal void Dispose()
    {
        // Once only, even when two threads dispose the socket together: a reactor slot given back twice would later
        // be shared by two sockets, and one of them would never be woken.
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        FailParked(SocketOperation.DisposedError);
        SocketReactor.Instance.Unregister(_slot, _fd);
    }

    private void ExitGate()
    {
        Monitor.Exit(_gate);
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _pumpRequested) != 0 || Receive.IsParked || Send.IsParked)
        {
            Pump();
        }
    }

    /// <summary>
    /// Takes the gate for an asynchronous call's first attempt. A pump holds it only for a few non-blocking libzmq
    /// calls, so that is waited out (briefly), and a frame already waiting is still received at once; a synchronous
    /// call may hold it for as long as it blocks, so that is not waited for.
    /// </summary>
    private bool TryEnterGateForCall() =>
        Monitor.TryEnter(_gate) || (Volatile.Read(ref _pumping) && Monitor.TryEnter(_gate, PumpWaitMilliseconds));

    private void PumpInsideGate()
    {
        Volatile.Write(ref _pumping, true);
        try
        {
            PumpOperations();
        }
        finally
        {
            Volatile.Write(ref _pumping, false);
        }
    }

    private void PumpOperations()
    {
        if (IsDisposed || !TryEnterHandle(out nint socket))
        {
            FailParked(SocketOperation.DisposedError);
            return;
        }

        try
        {
            while (true)
            {
                // Reading ZMQ_EVENTS drains libzmq's pending commands, which re-arms ZMQ_FD for the next change.
                int events = ReadEvents(socket);
                if (events < 0)
                {
                    FailParked(-events);
                    return;
                }

                bool progressed = false;
                if ((events & (int)PollEvents.In) != 0)
                {
                    progressed |= TryAdvance(Receive, socket);
                }

                if ((events & (int)PollEvents.Out) != 0)
                {
                    progressed |= TryAdvance(Send, socket);
                }

                if (!progressed)
                {
                    return;
                }
            }
        }
        finally
        {
            _handle.DangerousRelease();
        }
    }

    private static bool TryAdvance(SocketOperation operation, nint socket)
    {
        if (!operation.TryClaimParked())
        {
            return false;
        }

        if (operation.TryExecute(socket, out int result, out Exception? error))
        {
            operation.Complete(result, error);
            return true;
        }

        operation.Requeue();
        return false;
    }

    private bool TryExecute(SocketOperation operation, out int result, out Exception? error)
    {
        if (!TryEnterHandle(out nint socket))
        {
            result = 0;
            error = CreateDisposedException();
            return true;
        }

        try
        {
            return operation.TryExecute(socket, out result, out error);
        }
        finally
        {
            _handle.DangerousRelease();
        }
    }

    private bool TryEnterHandle(out nint socket)
    {
        bool added = false;
        try
        {
            _handle.DangerousAddRef(ref added);
        }
        catch (ObjectDisposedException)
        {
        }

        socket = added ? _handle.DangerousGetHandle() : 0;
        return added;
    }

    /// <summary>The socket's <c>ZMQ_EVENTS</c>, or minus the error number (ETERM once the context is shut down).</summary>
    private static int ReadEvents(nint socket)
    {
        int events;
        nuint size = sizeof(int);
        while (LibZmq.GetSockOpt(socket, ZmqEvents, &events, &size) != 0)
        {
            int errorNumber = LibZmq.Errno();
            if (errorNumber != ZmqError.EINTR)
            {
                return -errorNumber;
            }
        }

        return events;
    }

    private void FailParked(int errorNumber)
    {
        Receive.FailIfParked(errorNumber);
        Send.FailIfParked(errorNumber);
    }
}
