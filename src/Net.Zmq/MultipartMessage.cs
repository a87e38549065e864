using System.Collections;

namespace Net.Zmq;

/// <summary>
/// The frames of one multipart message, as <see cref="Message"/> objects it owns. Send it with
/// <see cref="Socket.SendMultipart(MultipartMessage, SendFlags)"/>; receive into it with
/// <see cref="Socket.RecvMultipart(MultipartMessage, RecvFlags)"/>, which reuses its frames so that a steady
/// stream of messages with the same frame count allocates nothing.
/// </summary>
public sealed partial class MultipartMessage : IReadOnlyList<Message>, IDisposable
{
    private readonly List<Message> _frames = [];
    private int _count;

    // As in Message: a send or receive (and an asynchronous operation's libzmq calls) claims the frames, and a Clear or Dispose meanwhile is
    // left to the end of that call. Each Clear starts a new generation, so a waiting operation sees it happened.
    private const int Free = 0, InCall = 1, ClearDeferred = 2, Clearing = 3;
    private int _asyncUse;
    private int _generation;

    // Set on a multipart message the library creates for its caller (RecvMultipart()): its frames are guarded as
    // Socket.Recv()'s message is (Message.Guard.cs).
    private bool _framesForCaller;

    /// <summary>Creates an empty multipart message.</summary>
    public MultipartMessage()
    {
    }

    /// <summary>Creates an empty multipart message for a receive the library makes on the caller's behalf: its received frames are guarded.</summary>
    internal static MultipartMessage ForCaller() => new() { _framesForCaller = true };

    /// <summary>Creates a multipart message with one frame per element of <paramref name="frames"/> (copied).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its elements is null.</exception>
    public MultipartMessage(IEnumerable<byte[]> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        foreach (byte[] frame in frames)
        {
            ArgumentNullException.ThrowIfNull(frame, nameof(frames));
            Add(frame);
        }
    }

    /// <summary>The number of frames.</summary>
    public int Count => _count;

    /// <summary>The frame at <paramref name="index"/>.</summary>
    /// <remarks>
    /// The frame belongs to this multipart message, which reuses it on the next receive into it and frees it on
    /// <see cref="Clear"/> or <see cref="Dispose"/>. <b>Warning: the bytes behind <see cref="Message.Data"/> belong to libzmq.</b> A span read after the message is
    /// next received into, sent, moved, copied into or disposed points at memory that may already be freed: reading
    /// it is undefined behaviour (an access violation that ends the process, or another message's bytes), even though
    /// the code compiles as safe C#. Consume the bytes before the next call, or keep a copy: <c>message.ToArray()</c>
    /// or <c>message.Data.ToArray()</c>. Never store the span, or a pointer taken from it, beyond that point. The
    /// frames of a multipart message the library created (<see cref="Socket.RecvMultipart()"/>) are guarded as
    /// <see cref="Socket.Recv()"/>'s message is: their <c>Data</c> is memory the GC owns.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not below <see cref="Count"/>.</exception>
    public Message this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)_count, nameof(index));
            return _frames[index];
        }
    }

    /// <summary>Appends <paramref name="frame"/>; the multipart message takes ownership and disposes it.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
    /// <exception cref="ObjectDisposedException"><paramref name="frame"/> was disposed.</exception>
    public void Add(Message frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        frame.ThrowIfDisposed();
        if (_count < _frames.Count)
        {
            _frames[_count].Dispose();
            _frames[_count] = frame;
        }
        else
        {
            _frames.Add(frame);
        }

        _count++;
    }

    /// <summary>Appends a frame holding a copy of <paramref name="data"/>.</summary>
    public void Add(ReadOnlySpan<byte> data) => Add(new Message(data));

    /// <summary>Appends a frame holding a copy of <paramref name="data"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    public void Add(byte[] data)
    {
        ArgumentNullException.ThrowIfNull(data);
        Add(new Message(data.AsSpan()));
    }

    /// <summary>Appends a frame holding the UTF-8 bytes of <paramref name="text"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public void Add(string text) => Add(new Message(text));

    /// <summary>Appends an empty frame (the delimiter REQ/REP envelopes use).</summary>
    public void AddEmpty() => Add(new Message());

    /// <summary>Removes all frames (disposing them).</summary>
    /// <remarks>An asynchronous send or receive waiting on this message then fails with <see cref="ObjectDisposedException"/>.</remarks>
    public void Clear()
    {
        while (true)
        {
            int prior = Interlocked.CompareExchange(ref _asyncUse, Clearing, Free);
            if (prior == Free)
            {
                try
                {
                    ClearNow();
                }
                finally
                {
                    Volatile.Write(ref _asyncUse, Free);
                }

                return;
            }

            if (prior == ClearDeferred || (prior == InCall && Interlocked.CompareExchange(ref _asyncUse, ClearDeferred, InCall) == InCall))
            {
                return; // an asynchronous operation's call holds the frames: it clears them on its way out
            }

            Thread.SpinWait(1); // another thread is clearing it
        }
    }

    /// <summary>Which Clear (or Dispose) the message is at; an asynchronous operation records it when it starts.</summary>
    internal int Generation => Volatile.Read(ref _generation);

    /// <summary>Claims the frames for a send or receive (of an asynchronous operation started at <paramref name="generation"/>); false if cleared or disposed since, or while another call has them.</summary>
    internal bool TryEnterCall(int generation)
    {
        if (Interlocked.CompareExchange(ref _asyncUse, InCall, Free) != Free)
        {
            return false;
        }

        if (Volatile.Read(ref _generation) != generation)
        {
            ExitCall();
            return false;
        }

        return true;
    }

    /// <summary>Ends a claim of <see cref="TryEnterCall"/>; runs a Clear or Dispose that came meanwhile.</summary>
    internal void ExitCall()
    {
        if (Interlocked.CompareExchange(ref _asyncUse, Free, InCall) != InCall)
        {
            try
            {
                ClearNow();
            }
            finally
            {
                Volatile.Write(ref _asyncUse, Free);
            }
        }
    }

    private void ClearNow()
    {
        Interlocked.Increment(ref _generation);
        foreach (Message frame in _frames)
        {
            frame.Dispose();
        }

        _frames.Clear();
        _count = 0;
    }

    /// <summary>Disposes every frame.</summary>
    public void Dispose() => Clear();

    /// <inheritdoc />
    public IEnumerator<Message> GetEnumerator()
    {
        for (int i = 0; i < _count; i++)
        {
            yield return _frames[i];
        }
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>Returns the frame at <paramref name="index"/> for receiving, creating it if needed, and counts it in.</summary>
    internal Message NextFrameForReceive(int index)
    {
        if (index == _frames.Count)
        {
            _frames.Add(NewFrame());
        }
        else if (_frames[index].IsDisposed)
        {
            _frames[index] = NewFrame();
        }

        _count = index + 1;
        return _frames[index];
    }

    private Message NewFrame() => _framesForCaller ? Message.ForCaller() : new Message();

    /// <summary>Starts a receive: the frames stay allocated for reuse but the count is reset.</summary>
    internal void ResetForReceive() => _count = 0;
}
