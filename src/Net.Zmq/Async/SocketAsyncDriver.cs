using System.Buffers;
using System.Text;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// Drives a socket's asynchronous sends and receives: its two reusable operations, its registration with the
/// <see cref="SocketReactor"/>, and the gate that keeps libzmq calls on the socket one at a time. It is given the
/// native handle, the socket's type and its <c>ZMQ_FD</c> when created and never refers to the <see cref="Socket"/>,
/// so a socket dropped without Dispose stays collectible (its <see cref="SocketAsyncDriverCollector"/> then disposes
/// the driver, and the handle's finalizer closes the native socket).
/// </summary>
/// <remarks>
/// Every libzmq call on the socket — the reactor's, an async call's first attempt, and from then on every
/// synchronous call (through <see cref="EnterSync"/>) — runs inside the gate, once the socket's
/// <see cref="SocketGate"/> has handed the socket over (<see cref="HandOver"/>). The reactor never waits for the gate:
/// when it is taken it leaves a request, and whoever holds the gate pumps on the way out. After any call, if an
/// operation is parked, the socket is pumped, which ends by reading <c>ZMQ_EVENTS</c>: a send can make a socket
/// readable, and libzmq signals <c>ZMQ_FD</c> again only after its pending commands were drained that way.
/// </remarks>
internal sealed unsafe class SocketAsyncDriver
{
    private const int ZmqEvents = (int)SocketOption.Events;
    private const int PumpWaitMilliseconds = 5;

    private readonly SocketHandle _handle;
    private readonly SocketType _type;
    private readonly object _gate = new();
    private readonly nint _fd;
    private readonly int _slot;

    // Replaced only when the operation was completed by cancellation and its ValueTask never awaited (see Fresh).
    private SocketOperation _receive = new(Direction.Receive);
    private SocketOperation _send = new(Direction.Send);

    private int _pumpRequested;
    private bool _pumping;
    private int _disposed;

    // 1 from creation until HandOver: a synchronous call that began before this driver existed took no gate and may
    // still be inside libzmq, so neither a pump nor a first attempt calls libzmq until the socket's gate says it ended.
    private int _awaitingHandOver = 1;

    private SocketAsyncDriver(SocketHandle handle, SocketType type, nint fd)
    {
        _handle = handle;
        _type = type;
        _fd = fd;
        _slot = SocketReactor.Instance.Register(this, fd);
    }

    /// <summary>Whether <see cref="Dispose"/> has begun (set before it ends the parked waits).</summary>
    internal bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>Creates the driver of a <paramref name="type"/> socket whose <c>ZMQ_FD</c> is <paramref name="fd"/> and starts watching it.</summary>
    internal static SocketAsyncDriver Start(SocketHandle handle, SocketType type, nint fd) => new(handle, type, fd);

    /// <summary>Receives one frame into <paramref name="buffer"/>; the result is the frame's size.</summary>
    internal ValueTask<int> ReceiveAsync(Memory<byte> buffer, CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested
            ? ValueTask.FromCanceled<int>(cancellationToken)
            : RunForCount(Fresh(ref _receive).ClaimToReceive(buffer), cancellationToken);

    /// <summary>Receives one frame into <paramref name="message"/>.</summary>
    internal ValueTask ReceiveAsync(Message message, CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested
            ? ValueTask.FromCanceled(cancellationToken)
            : Run(Fresh(ref _receive).ClaimToReceive(message), cancellationToken);

    /// <summary>Receives a whole multipart message into <paramref name="message"/>.</summary>
    internal ValueTask ReceiveAsync(MultipartMessage message, CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested
            ? ValueTask.FromCanceled(cancellationToken)
            : Run(Fresh(ref _receive).ClaimToReceive(message), cancellationToken);

    /// <summary>Sends <paramref name="data"/> as one frame; <paramref name="pooledArray"/>, if any, goes back to the pool whatever happens.</summary>
    internal ValueTask SendAsync(ReadOnlyMemory<byte> data, SendFlags flags, byte[]? pooledArray, CancellationToken cancellationToken)
    {
        SocketOperation operation;
        try
        {
            ThrowIfDontWait(flags);
            if (cancellationToken.IsCancellationRequested)
            {
                ReturnToPool(pooledArray);
                return ValueTask.FromCanceled(cancellationToken);
            }

            operation = Fresh(ref _send).ClaimToSend(data, flags, pooledArray);
        }
        catch
        {
            ReturnToPool(pooledArray);
            throw;
        }

        return Run(operation, cancellationToken);
    }

    /// <summary>Sends the UTF-8 bytes of <paramref name="text"/> as one frame.</summary>
    internal ValueTask SendAsync(string text, SendFlags flags, CancellationToken cancellationToken)
    {
        byte[] bytes = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetMaxByteCount(text.Length));
        int length = Encoding.UTF8.GetBytes(text, bytes);
        return SendAsync(bytes.AsMemory(0, length), flags, bytes, cancellationToken);
    }

    /// <summary>Sends <paramref name="message"/> as one frame without copying it.</summary>
    internal ValueTask SendAsync(Message message, SendFlags flags, CancellationToken cancellationToken)
    {
        ThrowIfDontWait(flags);
        return cancellationToken.IsCancellationRequested
            ? ValueTask.FromCanceled(cancellationToken)
            : Run(Fresh(ref _send).ClaimToSend(message, flags), cancellationToken);
    }

    /// <summary>Sends every frame of <paramref name="message"/> as one multipart message.</summary>
    internal ValueTask SendAsync(MultipartMessage message, CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested
            ? ValueTask.FromCanceled(cancellationToken)
            : Run(Fresh(ref _send).ClaimToSend(message), cancellationToken);

    private static void ThrowIfDontWait(SendFlags flags)
    {
        if ((flags & SendFlags.DontWait) != 0)
        {
            ThrowHelper.ThrowArgument("An asynchronous send waits until the frame can be queued; SendFlags.DontWait has no meaning there. Use Send(..., SendFlags.DontWait) for a send that must not wait.", nameof(flags));
        }
    }

    private static void ReturnToPool(byte[]? pooledArray)
    {
        if (pooledArray is not null)
        {
            ArrayPool<byte>.Shared.Return(pooledArray);
        }
    }

    /// <summary>
    /// The operation in <paramref name="field"/>, or a new one in its place when it was completed by cancellation and
    /// nobody took the result: its ValueTask keeps the old object (awaiting it later still throws the cancellation),
    /// and the direction is free again. Allocates only then, never on the hot path.
    /// </summary>
    private static SocketOperation Fresh(ref SocketOperation field)
    {
        SocketOperation operation = Volatile.Read(ref field);
        if (!operation.IsCancelledAndUnobserved)
        {
            return operation;
        }

        var fresh = new SocketOperation(operation.Direction);
        SocketOperation current = Interlocked.CompareExchange(ref field, fresh, operation);
        return current == operation ? fresh : current;
    }

    /// <summary>Runs a claimed and prepared operation whose result is a count (bytes or frames).</summary>
    private ValueTask<int> RunForCount(SocketOperation operation, CancellationToken cancellationToken)
    {
        short version = operation.Version;
        if (!TryFinishAtOnce(operation, cancellationToken, out int result, out Exception? error))
        {
            return new ValueTask<int>(operation, version);
        }

        return error is null ? new ValueTask<int>(result) : ValueTask.FromException<int>(error);
    }

    /// <summary>Runs a claimed and prepared operation whose caller needs no result.</summary>
    private ValueTask Run(SocketOperation operation, CancellationToken cancellationToken)
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
            operation.Park(this, cancellationToken);
            Pump();
            return false;
        }

        bool finished;
        try
        {
            finished = TryExecute(operation, out result, out error);
            if (!finished)
            {
                operation.Park(this, cancellationToken);
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

    /// <summary>
    /// Tries the parked operations as far as the socket allows: called by the reactor when <c>ZMQ_FD</c> signals, and
    /// by whoever leaves the gate while an operation is parked. What completes is published after the gate is left,
    /// so that no continuation runs inside it.
    /// </summary>
    /// <param name="runContinuationInline">
    /// Whether one continuation may run on this thread (the receive's, or the send's when no receive completed): only
    /// a reactor thread passes true, while another one is free to go on waiting. The others go to the thread pool.
    /// </param>
    /// <returns>False when another thread held the gate, so the pump was left to it.</returns>
    internal bool Pump(bool runContinuationInline = false)
    {
        Interlocked.Exchange(ref _pumpRequested, 1);
        bool pumped = false;
        Completion received = default;
        Completion sent = default;
        while (Volatile.Read(ref _awaitingHandOver) == 0 && Monitor.TryEnter(_gate))
        {
            pumped = true;
            try
            {
                Volatile.Write(ref _pumpRequested, 0);
                PumpInsideGate(ref received, ref sent);
            }
            finally
            {
                Monitor.Exit(_gate);
            }

            Interlocked.MemoryBarrier();
            if (Volatile.Read(ref _pumpRequested) == 0)
            {
                break;
            }
        }

        sent.Publish(runContinuationInline && received.IsEmpty);
        received.Publish(runContinuationInline);
        return pumped;
    }

    /// <summary>
    /// Called once, by the socket's <see cref="SocketGate"/> under its claim, when the synchronous call that may have
    /// been in flight at this driver's creation has ended (or none was): from then on the gate alone keeps libzmq calls
    /// one at a time. The gate pumps what was parked meanwhile once it has given the claim back.
    /// </summary>
    internal void HandOver()
    {
        int before = Interlocked.Exchange(ref _awaitingHandOver, 0);
        System.Diagnostics.Debug.Assert(before == 1, "handed over once");
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

    /// <summary>Ends the parked operations with <see cref="ObjectDisposedException"/> and stops watching the socket.</summary>
    internal void Dispose()
    {
        // Once only, even when two threads dispose the socket together: a reactor slot given back twice would later
        // be shared by two sockets, and one of them would never be woken.
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        EndParkedWaits(WaitEnd.SocketDisposed, 0);
        SocketReactor.Instance.Unregister(_slot, _fd);
    }

    private void ExitGate()
    {
        Monitor.Exit(_gate);
        if (Monitor.IsEntered(_gate))
        {
            return; // a call nested in one of this thread's own (the gate is re-entrant): the outer one pumps as it leaves
        }

        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _pumpRequested) != 0 || Volatile.Read(ref _receive).IsParked || Volatile.Read(ref _send).IsParked)
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
        Volatile.Read(ref _awaitingHandOver) == 0 &&
        (Monitor.TryEnter(_gate) || (Volatile.Read(ref _pumping) && Monitor.TryEnter(_gate, PumpWaitMilliseconds)));

    private void PumpInsideGate(ref Completion received, ref Completion sent)
    {
        Volatile.Write(ref _pumping, true);
        try
        {
            PumpOperations(ref received, ref sent);
        }
        finally
        {
            Volatile.Write(ref _pumping, false);
        }
    }

    private void PumpOperations(ref Completion received, ref Completion sent)
    {
        if (IsDisposed || !_handle.TryLease(out nint socket))
        {
            EndParkedWaits(WaitEnd.SocketDisposed, 0);
            return;
        }

        try
        {
            while (true)
            {
                // Reading ZMQ_EVENTS drains libzmq's pending commands, which re-arms ZMQ_FD for the next change.
                if (!TryReadEvents(socket, out int events, out int errorNumber))
                {
                    EndParkedWaits(WaitEnd.SocketFailed, errorNumber);
                    return;
                }

                bool progressed = false;
                if ((events & (int)PollEvents.In) != 0)
                {
                    progressed |= TryAdvance(Volatile.Read(ref _receive), socket, ref received);
                }

                if ((events & (int)PollEvents.Out) != 0)
                {
                    progressed |= TryAdvance(Volatile.Read(ref _send), socket, ref sent);
                }

                if (!progressed)
                {
                    return;
                }
            }
        }
        finally
        {
            _handle.EndLease();
        }
    }

    /// <summary>Runs a parked operation once; when it finishes it stays Busy, to be published by <see cref="Pump"/> after the gate.</summary>
    private bool TryAdvance(SocketOperation operation, nint socket, ref Completion completion)
    {
        if (!operation.TryClaimParked())
        {
            return false;
        }

        if (operation.TryExecute(socket, _type, out int result, out Exception? error))
        {
            completion = new Completion(operation, result, error);
            return true;
        }

        operation.Requeue(this);
        return false;
    }

    private bool TryExecute(SocketOperation operation, out int result, out Exception? error)
    {
        if (!_handle.TryLease(out nint socket))
        {
            result = 0;
            error = SocketOperation.CreateSocketDisposedException();
            return true;
        }

        try
        {
            return operation.TryExecute(socket, _type, out result, out error);
        }
        finally
        {
            _handle.EndLease();
        }
    }

    /// <summary>Reads the socket's <c>ZMQ_EVENTS</c>; false with the error number when libzmq refuses (ETERM once the context is shut down).</summary>
    private static bool TryReadEvents(nint socket, out int events, out int errorNumber)
    {
        int value;
        nuint size = sizeof(int);
        while (LibZmq.GetSockOpt(socket, ZmqEvents, &value, &size) != 0)
        {
            errorNumber = LibZmq.Errno();
            if (ErrnoPolicy.Classify(errorNumber, dontWait: false) != AfterFailure.Retry)
            {
                events = 0;
                return false;
            }
        }

        events = value;
        errorNumber = 0;
        return true;
    }

    private void EndParkedWaits(WaitEnd reason, int errorNumber)
    {
        Volatile.Read(ref _receive).TryEndWait(reason, _type, errorNumber);
        Volatile.Read(ref _send).TryEndWait(reason, _type, errorNumber);
    }

    /// <summary>An operation a pump finished, with its outcome, until it is published outside the gate.</summary>
    private readonly struct Completion(SocketOperation? operation, int result, Exception? error)
    {
        public bool IsEmpty => operation is null;

        public void Publish(bool runContinuationInline) => operation?.Complete(result, error, runContinuationInline);
    }
}
