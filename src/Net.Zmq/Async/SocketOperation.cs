using System.Buffers;
using System.Threading.Tasks.Sources;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// The one asynchronous send or receive a socket can have in flight, reused for every operation in that direction
/// so that awaiting allocates nothing. Its state moves Idle → Busy (someone is calling libzmq for it) → Parked
/// (waiting for the socket to become ready) → Busy → ... → Completed → Idle (when the awaiter takes the result).
/// An operation completed by cancellation whose result nobody takes stays Completed; the socket's next call in that
/// direction replaces it with a new one (<see cref="SocketAsyncState"/>), so the direction is not blocked forever.
/// Only the thread that moved it to Busy touches libzmq or the arguments; cancellation and disposal complete it
/// only from Parked, so a frame is never received into an operation that has already been cancelled.
/// </summary>
internal sealed unsafe class SocketOperation : IValueTaskSource<int>, IValueTaskSource
{
    private const int Idle = 0;
    private const int Busy = 1;
    private const int Parked = 2;
    private const int Completed = 3;

    /// <summary>Pseudo error numbers for <see cref="FailIfParked"/>: not libzmq's, which are all positive.</summary>
    internal const int CancelledError = -1;
    internal const int DisposedError = -2;

    private static readonly Action<object?> s_onCancel = static state => ((SocketOperation)state!).OnCancel();

    private readonly SocketAsyncState _owner;
    private readonly string _name;
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

    // Whether this operation holds its Message or MultipartMessage claimed (TryEnterAsyncCall): during each libzmq
    // call, and for a multipart send from its first queued frame until it completes.
    private bool _argumentsClaimed;

    internal SocketOperation(SocketAsyncState owner, string name)
    {
        _owner = owner;
        _name = name;
    }

    private enum OperationKind : byte { ReceiveBuffer, ReceiveMessage, ReceiveMultipart, SendBuffer, SendMessage, SendMultipart }

    internal bool IsParked => Volatile.Read(ref _state) == Parked;

    internal string Name => _name;

    /// <summary>Completed by cancellation and its result not taken yet: a new call may take a fresh operation instead.</summary>
    internal bool IsCancelledAndUnobserved => Volatile.Read(ref _state) == Completed && _completedByCancellation;

    /// <summary>The token of the current operation, for the <see cref="ValueTask"/> handed to the caller.</summary>
    internal short Version => _core.Version;

    /// <summary>Takes the operation for a new call.</summary>
    /// <exception cref="InvalidOperationException">The previous one in this direction has not completed, or its result was not taken yet.</exception>
    private void Claim()
    {
        if (Interlocked.CompareExchange(ref _state, Busy, Idle) != Idle)
        {
            ThrowHelper.ThrowInvalidOperation(
                $"A {_name} is already pending on this socket. A socket runs one asynchronous send and one asynchronous " +
                $"receive at a time: await the pending {_name} before starting the next.");
        }

        _core.Reset();
        _cancelRequested = 0;
        _completedByCancellation = false;
    }

    /// <summary>Gives the operation back unused, after it completed synchronously or was rejected.</summary>
    internal void Release()
    {
        ClearArguments();
        Volatile.Write(ref _state, Idle);
    }

    /// <summary>Claims the operation for a receive into <paramref name="buffer"/>.</summary>
    internal SocketOperation ClaimToReceive(Memory<byte> buffer)
    {
        Claim();
        _kind = OperationKind.ReceiveBuffer;
        _buffer = buffer;
        return this;
    }

    /// <summary>Claims the operation for a receive into <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToReceive(Message message)
    {
        Claim();
        _kind = OperationKind.ReceiveMessage;
        _message = message;
        return this;
    }

    /// <summary>Claims the operation for a receive of a whole multipart message into <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToReceive(MultipartMessage message)
    {
        Claim();
        _kind = OperationKind.ReceiveMultipart;
        _multipart = message;
        _generation = message.Generation;
        return this;
    }

    /// <summary>Claims the operation for a send of <paramref name="data"/>; <paramref name="pooledArray"/>, if any, goes back to the pool when done.</summary>
    internal SocketOperation ClaimToSend(ReadOnlyMemory<byte> data, SendFlags flags, byte[]? pooledArray)
    {
        Claim();
        _kind = OperationKind.SendBuffer;
        _data = data;
        _flags = (int)flags;
        _pooledArray = pooledArray;
        return this;
    }

    /// <summary>Claims the operation for a send of <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToSend(Message message, SendFlags flags)
    {
        Claim();
        _kind = OperationKind.SendMessage;
        _message = message;
        _flags = (int)flags;
        return this;
    }

    /// <summary>Claims the operation for a send of every frame of <paramref name="message"/>.</summary>
    internal SocketOperation ClaimToSend(MultipartMessage message)
    {
        Claim();
        _kind = OperationKind.SendMultipart;
        _multipart = message;
        _generation = message.Generation;
        _nextFrame = 0;
        return this;
    }

    /// <summary>
    /// Runs the operation without blocking. Returns false when libzmq answered EAGAIN (try again when the socket is
    /// ready); true when it is finished, with its <paramref name="result"/> or the <paramref name="error"/> it met.
    /// </summary>
    internal bool TryExecute(nint socket, out int result, out Exception? error)
    {
        if (!TryClaimArguments())
        {
            // The message was disposed (or the multipart message cleared) while the operation waited: libzmq must
            // never see it.
            result = 0;
            error = new ObjectDisposedException(_multipart is null ? typeof(Message).FullName : typeof(MultipartMessage).FullName,
                $"The message was disposed while the asynchronous {_name} waited for the socket.");
            return true;
        }

        bool finished = false;
        try
        {
            finished = TryExecuteClaimed(socket, out result, out error);
            return finished;
        }
        finally
        {
            // A multipart send that has queued frames keeps the message until it completes, so it is sent whole.
            if (finished || _kind != OperationKind.SendMultipart || _nextFrame == 0)
            {
                ReleaseArguments();
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
                return _argumentsClaimed = _message!.TryEnterAsyncCall();
            case OperationKind.ReceiveMultipart or OperationKind.SendMultipart:
                return _argumentsClaimed = _multipart!.TryEnterAsyncCall(_generation);
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
            multipart.ExitAsyncCall();
        }
        else
        {
            _message?.ExitAsyncCall();
        }
    }

    private bool TryExecuteClaimed(nint socket, out int result, out Exception? error)
    {
        error = null;
        int errorNumber;
        while ((result = ExecuteOnce(socket)) < 0)
        {
            errorNumber = LibZmq.Errno();
            if (errorNumber == ZmqError.EAGAIN)
            {
                return false;
            }

            if (errorNumber != ZmqError.EINTR)
            {
                error = _kind <= OperationKind.ReceiveMultipart
                    ? ThrowHelper.CreateZmqException(errorNumber, $"Receive on a {_owner.SocketType} socket")
                    : ThrowHelper.CreateZmqException(errorNumber, $"Send on a {_owner.SocketType} socket");
                return true;
            }
        }

        return true;
    }

    /// <summary>One libzmq call (or, for multipart, a run of them); −1 with errno set when it did not finish.</summary>
    private int ExecuteOnce(nint socket)
    {
        const int dontWait = (int)RecvFlags.DontWait;
        switch (_kind)
        {
            case OperationKind.ReceiveBuffer:
                fixed (byte* p = _buffer.Span)
                {
                    return LibZmq.Recv(socket, p, (nuint)_buffer.Length, dontWait);
                }

            case OperationKind.ReceiveMessage:
                fixed (ZmqMsg* msg = &_message!.Native)
                {
                    return LibZmq.MsgRecv(msg, socket, dontWait);
                }

            case OperationKind.ReceiveMultipart:
                return ReceiveMultipart(socket);

            case OperationKind.SendBuffer:
                fixed (byte* p = _data.Span)
                {
                    return LibZmq.Send(socket, p, (nuint)_data.Length, _flags | dontWait);
                }

            case OperationKind.SendMessage:
                fixed (ZmqMsg* msg = &_message!.Native)
                {
                    return LibZmq.MsgSend(msg, socket, _flags | dontWait);
                }

            default:
                return SendMultipart(socket);
        }
    }

    private int ReceiveMultipart(nint socket)
    {
        MultipartMessage message = _multipart!;
        message.ResetForReceive();
        for (int i = 0; ; i++)
        {
            // libzmq delivers a multipart message whole: once its first frame is here, so are the others.
            Message frame = message.NextFrameForReceive(i);
            int rc;
            fixed (ZmqMsg* msg = &frame.Native)
            {
                rc = LibZmq.MsgRecv(msg, socket, i == 0 ? (int)RecvFlags.DontWait : 0);
            }

            if (rc < 0)
            {
                if (i == 0)
                {
                    message.ResetForReceive();
                }

                return -1;
            }

            if (!frame.More)
            {
                return message.Count;
            }
        }
    }

    private int SendMultipart(nint socket)
    {
        MultipartMessage message = _multipart!;
        int last = message.Count - 1;
        for (; _nextFrame <= last; _nextFrame++)
        {
            int flags = (int)SendFlags.DontWait | (_nextFrame < last ? (int)SendFlags.SendMore : 0);
            fixed (ZmqMsg* msg = &message[_nextFrame].Native)
            {
                if (LibZmq.MsgSend(msg, socket, flags) < 0)
                {
                    return -1;
                }
            }
        }

        return message.Count;
    }

    /// <summary>After a first attempt found the socket not ready: waits for it, cancellable through <paramref name="cancellationToken"/>.</summary>
    internal void Park(CancellationToken cancellationToken)
    {
        _cancellationToken = cancellationToken;
        if (cancellationToken.CanBeCanceled)
        {
            _registration = cancellationToken.UnsafeRegister(s_onCancel, this);
        }

        Requeue();
    }

    /// <summary>Moves a parked operation to Busy for an attempt; false if it is not parked (done, cancelled, or idle).</summary>
    internal bool TryClaimParked() => Interlocked.CompareExchange(ref _state, Busy, Parked) == Parked;

    /// <summary>Parks a Busy operation again, unless it was cancelled or its socket disposed in the meantime.</summary>
    internal void Requeue()
    {
        Interlocked.Exchange(ref _state, Parked);
        if (Volatile.Read(ref _cancelRequested) != 0 && _nextFrame == 0)
        {
            FailIfParked(CancelledError);
        }
        else if (_owner.IsDisposed)
        {
            FailIfParked(DisposedError);
        }
    }

    /// <summary>Completes a parked operation with an error: an errno, <see cref="DisposedError"/> or <see cref="CancelledError"/>.</summary>
    internal void FailIfParked(int errorNumber)
    {
        if (Interlocked.CompareExchange(ref _state, Completed, Parked) != Parked)
        {
            return;
        }

        if (errorNumber == CancelledError)
        {
            _completedByCancellation = true;
        }

        Exception error = errorNumber switch
        {
            CancelledError => new OperationCanceledException(_cancellationToken),
            DisposedError => _owner.CreateDisposedException(),
            _ => ThrowHelper.CreateZmqException(errorNumber, $"Waiting to {_name} on a {_owner.SocketType} socket"),
        };
        Finish(0, error);
    }

    /// <summary>Completes a Busy operation with the outcome of <see cref="TryExecute"/>.</summary>
    internal void Complete(int result, Exception? error)
    {
        Volatile.Write(ref _state, Completed);
        Finish(result, error);
    }

    private void Finish(int result, Exception? error)
    {
        // Dispose, not Unregister: it waits for a cancellation callback already running on another thread, which
        // would otherwise set _cancelRequested after the next operation's Claim and cancel that operation instead.
        _registration.Dispose();
        _registration = default;
        _cancellationToken = default;
        ClearArguments();
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
            FailIfParked(CancelledError);
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
