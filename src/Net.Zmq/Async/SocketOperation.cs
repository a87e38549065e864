using System.Diagnostics;
using System.Buffers;
using System.Threading.Tasks.Sources;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// The one asynchronous send or receive a socket can have in flight, reused for every operation in that direction
/// so that awaiting allocates nothing. It knows only its direction and its arguments: the socket, its type and
/// whether it is disposed are given to each step by the <see cref="SocketAsyncDriver"/>.
/// </summary>
/// <remarks>
/// <code>
///           Claim…                 attempt: EAGAIN                 the reactor finds the socket ready
///   Idle ──────────► Busy ───────────────────────────► Parked ───────────────────────────────────► Busy ─┐
///    ▲                │ ▲                                 │                                                │
///    │                │ └─────────────────────────────────┼──────────── attempt: EAGAIN (Requeue) ◄────────┘
///    │                │ attempt finished (result, error)  │ TryEndWait: WaitEnd.Cancelled, SocketDisposed, SocketFailed
///    │                ▼                                   ▼
///    └─ GetResult ── Completed ◄──────────────────────────┘
/// </code>
/// Only the thread that moved it to Busy touches libzmq or the arguments; cancellation and disposal end it only from
/// Parked, so a frame is never received into an operation that has already been cancelled. An operation completed by
/// cancellation whose result nobody takes stays Completed; the driver then gives the next call a new one.
/// </remarks>
internal sealed unsafe class SocketOperation : IValueTaskSource<int>, IValueTaskSource
{
    private const int Idle = 0;
    private const int Busy = 1;
    private const int Parked = 2;
    private const int Completed = 3;

    private static readonly Action<object?> s_onCancel = static state => ((SocketOperation)state!).OnCancel();

    private readonly Direction _direction;
    private ManualResetValueTaskSourceCore<int> _core = new() { RunContinuationsAsynchronously = true };
    private int _state;
    private int _cancelRequested;

    // Set when cancellation completed the operation, before its result is published; cleared by the next Claim.
    private volatile bool _completedByCancellation;
    private CancellationToken _cancellationToken;
    private CancellationTokenRegistration _registration;

    private OperationKind _kind;
    private Memory<byte> _buffer;
    private ReadOnlyMemory<byte> _data;
    private byte[]? _pooledArray;
    private Message? _message;
    private MultipartMessage? _multipart;
    private int _nextFrame;
    private int _flags;
    private int _generation;

    // Whether this operation holds its Message or MultipartMessage claimed (TryEnterCall): during each libzmq
    // call, and for a multipart message from its first frame until it completes.
    private bool _argumentsClaimed;

    internal SocketOperation(Direction direction) => _direction = direction;

    private enum OperationKind : byte { ReceiveBuffer, ReceiveMessage, ReceiveMultipart, SendBuffer, SendMessage, SendMultipart }

    internal Direction Direction => _direction;

    internal bool IsParked => Volatile.Read(ref _state) == Parked;

    /// <summary>Completed by cancellation and its result not taken yet: a new call may take a fresh operation instead.</summary>
    internal bool IsCancelledAndUnobserved => Volatile.Read(ref _state) == Completed && _completedByCancellation;

    /// <summary>The token of the current operation, for the <see cref="ValueTask"/> handed to the caller.</summary>
    internal short Version => _core.Version;

    private string Name => _direction == Direction.Send ? "send" : "receive";

    /// <summary>Claims the operation for a receive into <paramref name="buffer"/>.</summary>
    internal SocketOperation ClaimToReceive(Memory<byte> buffer)
    {
        Claim(OperationKind.ReceiveBuffer, 0);
        _buffer = buffer;
        return this;
    }

    /// <summary>Claims the operation for a receive into <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToReceive(Message message)
    {
        Claim(OperationKind.ReceiveMessage, 0);
        _message = message;
        return this;
    }

    /// <summary>Claims the operation for a receive of a whole multipart message into <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToReceive(MultipartMessage message) => ClaimMultipart(OperationKind.ReceiveMultipart, message);

    /// <summary>Claims the operation for a send of <paramref name="data"/>; <paramref name="pooledArray"/>, if any, goes back to the pool when done.</summary>
    internal SocketOperation ClaimToSend(ReadOnlyMemory<byte> data, SendFlags flags, byte[]? pooledArray)
    {
        Claim(OperationKind.SendBuffer, flags);
        _data = data;
        _pooledArray = pooledArray;
        return this;
    }

    /// <summary>Claims the operation for a send of <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToSend(Message message, SendFlags flags)
    {
        Claim(OperationKind.SendMessage, flags);
        _message = message;
        return this;
    }

    /// <summary>Claims the operation for a send of every frame of <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToSend(MultipartMessage message) => ClaimMultipart(OperationKind.SendMultipart, message);

    /// <summary>Gives the operation back unused, after it finished at once.</summary>
    internal void Release()
    {
        Debug.Assert(Volatile.Read(ref _state) == Busy, "only the Busy owner gives an operation back");
        ClearArguments();
        Volatile.Write(ref _state, Idle);
    }

    /// <summary>
    /// Runs the operation on <paramref name="socket"/> (a <paramref name="type"/> socket) without blocking. Returns
    /// false when libzmq answered EAGAIN (try again when the socket is ready); true when it is finished, with its
    /// <paramref name="result"/> or the <paramref name="error"/> it met.
    /// </summary>
    internal bool TryExecute(nint socket, SocketType type, out int result, out Exception? error)
    {
        result = 0;
        error = null;
        if (!TryClaimArguments())
        {
            // The message was disposed (or the multipart message cleared) while the operation waited: libzmq must
            // never see it.
            error = new ObjectDisposedException(_multipart is null ? typeof(Message).FullName : typeof(MultipartMessage).FullName,
                $"The message was disposed while the asynchronous {Name} waited for the socket.");
            return true;
        }

        bool finished = false;
        try
        {
            while (!TryExecuteOnce(socket, out result))
            {
                int errorNumber = LibZmq.Errno();
                switch (ErrnoPolicy.Classify(errorNumber, dontWait: true))
                {
                    case AfterFailure.Retry:
                        continue;
                    case AfterFailure.NothingYet:
                        return false;
                    default:
                        error = ThrowHelper.CreateTransferException(errorNumber, type, _direction);
                        return finished = true;
                }
            }

            return finished = true;
        }
        finally
        {
            // A multipart message that has frames in flight stays claimed until it completes, so it moves whole.
            if (finished || _nextFrame == 0)
            {
                ReleaseArguments();
            }
        }
    }

    /// <summary>After a first attempt found the socket not ready: waits for it, cancellable through <paramref name="cancellationToken"/>.</summary>
    internal void Park(SocketAsyncDriver driver, CancellationToken cancellationToken)
    {
        _cancellationToken = cancellationToken;
        if (cancellationToken.CanBeCanceled)
        {
            _registration = cancellationToken.UnsafeRegister(s_onCancel, this);
        }

        Requeue(driver);
    }

    /// <summary>Moves a parked operation to Busy for an attempt; false if it is not parked (done, cancelled, or idle).</summary>
    internal bool TryClaimParked()
    {
        bool claimed = Interlocked.CompareExchange(ref _state, Busy, Parked) == Parked;
        Debug.Assert(!claimed || Volatile.Read(ref _state) == Busy, "only the claimer moves a Busy operation");
        return claimed;
    }

    /// <summary>Parks a Busy operation again, unless it was cancelled or <paramref name="driver"/> disposed in the meantime.</summary>
    /// <remarks>
    /// Both are read after the state is Parked: a cancellation or a <see cref="SocketAsyncDriver.Dispose"/> sets its
    /// flag, then ends what it finds Parked, and this parks, then reads the flags, each side with a full fence, so at
    /// least one of the two ends the wait. A flag read before parking would leave a wait that nobody ends.
    /// </remarks>
    internal void Requeue(SocketAsyncDriver driver)
    {
        int before = Interlocked.Exchange(ref _state, Parked);
        Debug.Assert(before == Busy, "only a Busy operation is parked");
        if (Volatile.Read(ref _cancelRequested) != 0 && _nextFrame == 0)
        {
            TryEndWait(WaitEnd.Cancelled, default, 0);
        }
        else if (driver.IsDisposed)
        {
            TryEndWait(WaitEnd.SocketDisposed, default, 0);
        }
    }

    /// <summary>
    /// Ends a parked operation's wait for <paramref name="reason"/>; <paramref name="type"/> and
    /// <paramref name="errorNumber"/> describe a <see cref="WaitEnd.SocketFailed"/>. Does nothing unless parked.
    /// </summary>
    internal void TryEndWait(WaitEnd reason, SocketType type, int errorNumber)
    {
        if (Interlocked.CompareExchange(ref _state, Completed, Parked) != Parked)
        {
            return;
        }

        if (reason == WaitEnd.Cancelled)
        {
            _completedByCancellation = true;
        }

        Exception error = reason switch
        {
            WaitEnd.Cancelled => new OperationCanceledException(_cancellationToken),
            WaitEnd.SocketDisposed => CreateSocketDisposedException(),
            _ => ThrowHelper.CreateZmqException(errorNumber, $"Waiting to {Name} on a {type} socket"),
        };
        Finish(0, error, runContinuationInline: false);
    }

    /// <summary>
    /// Completes a Busy operation with the outcome of <see cref="TryExecute"/>; with <paramref name="runContinuationInline"/>
    /// the awaiting code resumes on this thread, inside this call.
    /// </summary>
    internal void Complete(int result, Exception? error, bool runContinuationInline)
    {
        Debug.Assert(Volatile.Read(ref _state) == Busy, "only the Busy owner completes an operation");
        Volatile.Write(ref _state, Completed);
        Finish(result, error, runContinuationInline);
    }

    internal static ObjectDisposedException CreateSocketDisposedException() =>
        new(typeof(Socket).FullName, "The socket was disposed while the operation waited.");

    /// <summary>Takes the operation for a new call.</summary>
    /// <exception cref="InvalidOperationException">The previous one in this direction has not completed, or its result was not taken yet.</exception>
    private void Claim(OperationKind kind, SendFlags flags)
    {
        int before = Interlocked.CompareExchange(ref _state, Busy, Idle);
        Debug.Assert(before is Idle or Busy or Parked or Completed, "an operation has four states");
        if (before != Idle)
        {
            ThrowHelper.ThrowInvalidOperation(
                $"A {Name} is already pending on this socket. A socket runs one asynchronous send and one asynchronous " +
                $"receive at a time: await the pending {Name} before starting the next.");
        }

        _core.Reset();
        _cancelRequested = 0;
        _completedByCancellation = false;
        _kind = kind;
        _flags = (int)flags;
    }

    private SocketOperation ClaimMultipart(OperationKind kind, MultipartMessage message)
    {
        Claim(kind, 0);
        _multipart = message;
        _generation = message.Generation;
        return this;
    }

    /// <summary>One step: a libzmq call, or for a multipart message as many as it takes. False with errno set when it did not finish.</summary>
    private bool TryExecuteOnce(nint socket, out int result)
    {
        const int dontWait = (int)SendFlags.DontWait;
        switch (_kind)
        {
            case OperationKind.ReceiveBuffer:
                fixed (byte* p = _buffer.Span)
                {
                    return (result = LibZmq.Recv(socket, p, (nuint)_buffer.Length, dontWait)) >= 0;
                }

            case OperationKind.ReceiveMessage:
                fixed (ZmqMsg* msg = &_message!.Native)
                {
                    if ((result = LibZmq.MsgRecv(msg, socket, dontWait)) < 0)
                    {
                        return false;
                    }
                }

                _message!.MarkFilled();
                return true;

            case OperationKind.SendBuffer:
                fixed (byte* p = _data.Span)
                {
                    return (result = LibZmq.Send(socket, p, (nuint)_data.Length, _flags | dontWait)) >= 0;
                }

            case OperationKind.SendMessage:
                fixed (ZmqMsg* msg = &_message!.Native)
                {
                    if ((result = LibZmq.MsgSend(msg, socket, _flags | dontWait)) < 0)
                    {
                        return false;
                    }
                }

                _message!.MarkSent();
                return true;

            case OperationKind.ReceiveMultipart:
            {
                bool received = MultipartFrames.TryReceive(socket, _multipart!, ref _nextFrame, dontWait);
                result = _multipart!.Count;
                return received;
            }

            default:
            {
                bool sent = MultipartFrames.TrySend(socket, _multipart!, ref _nextFrame, dontWait, dontWait);
                result = _multipart!.Count;
                return sent;
            }
        }
    }

    private bool TryClaimArguments()
    {
        if (_argumentsClaimed)
        {
            return true;
        }

        switch (_kind)
        {
            case OperationKind.ReceiveMessage or OperationKind.SendMessage:
                return _argumentsClaimed = _message!.TryEnterCall();
            case OperationKind.ReceiveMultipart or OperationKind.SendMultipart:
                return _argumentsClaimed = _multipart!.TryEnterCall(_generation);
            default:
                return true; // a buffer: the caller keeps it untouched until the operation completes
        }
    }

    private void ReleaseArguments()
    {
        if (!_argumentsClaimed)
        {
            return;
        }

        _argumentsClaimed = false;
        if (_multipart is { } multipart)
        {
            multipart.ExitCall();
        }
        else
        {
            _message?.ExitCall();
        }
    }

    private void Finish(int result, Exception? error, bool runContinuationInline)
    {
        // Dispose, not Unregister: it waits for a cancellation callback already running on another thread, which
        // would otherwise set _cancelRequested after the next operation's Claim and cancel that operation instead.
        _registration.Dispose();
        _registration = default;
        _cancellationToken = default;
        ClearArguments();
        _core.RunContinuationsAsynchronously = !runContinuationInline;
        if (error is null)
        {
            _core.SetResult(result);
        }
        else
        {
            _core.SetException(error);
        }
    }

    private void ClearArguments()
    {
        ReleaseArguments();
        if (_pooledArray is { } array)
        {
            ArrayPool<byte>.Shared.Return(array);
        }

        _pooledArray = null;
        _buffer = default;
        _data = default;
        _message = null;
        _multipart = null;
        _nextFrame = 0;
    }

    private void OnCancel()
    {
        Interlocked.Exchange(ref _cancelRequested, 1);
        if (_nextFrame == 0)
        {
            TryEndWait(WaitEnd.Cancelled, default, 0);
        }
    }

    int IValueTaskSource<int>.GetResult(short token)
    {
        // A stale token (a ValueTask awaited twice) throws without freeing the operation now in flight.
        bool current = token == _core.Version;
        try
        {
            return _core.GetResult(token);
        }
        finally
        {
            if (current)
            {
                Debug.Assert(Volatile.Read(ref _state) == Completed, "a result is taken only from a Completed operation");
                Volatile.Write(ref _state, Idle);
            }
        }
    }

    void IValueTaskSource.GetResult(short token) => ((IValueTaskSource<int>)this).GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _core.GetStatus(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
