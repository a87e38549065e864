namespace Net.Zmq;

/// <summary>
/// Editing the frames of a multipart message: at both ends (<see cref="Push(Message)"/>, <see cref="Pop"/>,
/// <see cref="Append(Message)"/>), anywhere (<see cref="Insert(int, Message)"/>, <see cref="RemoveAt"/>), and the
/// address envelopes ROUTER sockets read and write (<see cref="Wrap(Message)"/>, <see cref="Unwrap"/>).
/// </summary>
/// <remarks>
/// A frame given to the message belongs to it (it is disposed with the message); a frame taken out with
/// <see cref="Pop"/> or <see cref="Unwrap"/> belongs to the caller, who disposes it. Do not edit a message while an
/// asynchronous send or receive uses it.
/// </remarks>
public sealed partial class MultipartMessage
{
    /// <summary>Whether the message has no frames.</summary>
    public bool IsEmpty => _count == 0;

    /// <summary>The first frame (for a message a ROUTER received: the sender's routing id).</summary>
    /// <exception cref="InvalidOperationException">The message has no frames.</exception>
    public Message First
    {
        get
        {
            ThrowIfEmpty();
            return _frames[0];
        }
    }

    /// <summary>The last frame (usually the body).</summary>
    /// <exception cref="InvalidOperationException">The message has no frames.</exception>
    public Message Last
    {
        get
        {
            ThrowIfEmpty();
            return _frames[_count - 1];
        }
    }

    /// <summary>Appends <paramref name="frame"/>, as <see cref="Add(Message)"/> does; the multipart message takes ownership.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
    /// <exception cref="ObjectDisposedException"><paramref name="frame"/> was disposed.</exception>
    public void Append(Message frame) => Add(frame);

    /// <summary>Appends a frame holding a copy of <paramref name="data"/>, as <see cref="Add(ReadOnlySpan{byte})"/> does.</summary>
    public void Append(ReadOnlySpan<byte> data) => Add(data);

    /// <summary>Appends a frame holding a copy of <paramref name="data"/>, as <see cref="Add(byte[])"/> does.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    public void Append(byte[] data) => Add(data);

    /// <summary>Appends a frame holding the UTF-8 bytes of <paramref name="text"/>, as <see cref="Add(string)"/> does.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public void Append(string text) => Add(text);

    /// <summary>Puts <paramref name="frame"/> before the first frame; the multipart message takes ownership and disposes it.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
    /// <exception cref="ObjectDisposedException"><paramref name="frame"/> was disposed.</exception>
    public void Push(Message frame) => Insert(0, frame);

    /// <summary>Puts a frame holding a copy of <paramref name="data"/> before the first frame.</summary>
    public void Push(ReadOnlySpan<byte> data) => Insert(0, data);

    /// <summary>Puts a frame holding a copy of <paramref name="data"/> before the first frame.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    public void Push(byte[] data) => Insert(0, data);

    /// <summary>Puts a frame holding the UTF-8 bytes of <paramref name="text"/> before the first frame.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public void Push(string text) => Insert(0, text);

    /// <summary>Puts an empty frame (a delimiter) before the first frame.</summary>
    public void PushEmpty() => Insert(0, new Message());

    /// <summary>Inserts <paramref name="frame"/> so that it becomes frame <paramref name="index"/>; the multipart message takes ownership and disposes it.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or greater than <see cref="Count"/>.</exception>
    /// <exception cref="ObjectDisposedException"><paramref name="frame"/> was disposed.</exception>
    public void Insert(int index, Message frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)index, (uint)_count, nameof(index));
        frame.ThrowIfDisposed();
        _frames.Insert(index, frame);
        _count++;
    }

    /// <summary>Inserts a frame holding a copy of <paramref name="data"/> at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or greater than <see cref="Count"/>.</exception>
    public void Insert(int index, ReadOnlySpan<byte> data)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)index, (uint)_count, nameof(index));
        Insert(index, new Message(data));
    }

    /// <summary>Inserts a frame holding a copy of <paramref name="data"/> at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or greater than <see cref="Count"/>.</exception>
    public void Insert(int index, byte[] data)
    {
        ArgumentNullException.ThrowIfNull(data);
        Insert(index, data.AsSpan());
    }

    /// <summary>Inserts a frame holding the UTF-8 bytes of <paramref name="text"/> at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or greater than <see cref="Count"/>.</exception>
    public void Insert(int index, string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)index, (uint)_count, nameof(index));
        Insert(index, new Message(text));
    }

    /// <summary>Removes frame <paramref name="index"/> and disposes it.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not below <see cref="Count"/>.</exception>
    public void RemoveAt(int index) => Take(index).Dispose();

    /// <summary>Removes the first frame and returns it; the caller owns it and disposes it.</summary>
    /// <exception cref="InvalidOperationException">The message has no frames.</exception>
    public Message Pop()
    {
        ThrowIfEmpty();
        return Take(0);
    }

    /// <summary>
    /// Puts an address envelope in front of the message: <paramref name="address"/>, then an empty delimiter frame
    /// (what a ROUTER sends to a REQ, or a broker to the worker it routes through). The multipart message takes
    /// ownership of <paramref name="address"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="address"/> is null.</exception>
    /// <exception cref="ObjectDisposedException"><paramref name="address"/> was disposed.</exception>
    public void Wrap(Message address)
    {
        ArgumentNullException.ThrowIfNull(address);
        address.ThrowIfDisposed();
        Insert(0, new Message());
        Insert(0, address);
    }

    /// <summary>Puts an address envelope holding a copy of <paramref name="address"/> in front of the message; see <see cref="Wrap(Message)"/>.</summary>
    public void Wrap(ReadOnlySpan<byte> address) => Wrap(new Message(address));

    /// <summary>Puts an address envelope holding a copy of <paramref name="address"/> in front of the message; see <see cref="Wrap(Message)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="address"/> is null.</exception>
    public void Wrap(byte[] address)
    {
        ArgumentNullException.ThrowIfNull(address);
        Wrap(new Message(address.AsSpan()));
    }

    /// <summary>Puts an address envelope holding the UTF-8 bytes of <paramref name="address"/> in front of the message; see <see cref="Wrap(Message)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="address"/> is null.</exception>
    public void Wrap(string address) => Wrap(new Message(address));

    /// <summary>
    /// Takes the address envelope off the front of the message: removes the first frame and returns it (the caller owns
    /// it and disposes it), and removes the empty delimiter frame after it, if there is one.
    /// </summary>
    /// <exception cref="InvalidOperationException">The message has no frames.</exception>
    public Message Unwrap()
    {
        Message address = Pop();
        if (_count != 0 && _frames[0].Size == 0)
        {
            RemoveAt(0);
        }

        return address;
    }

    /// <summary>Removes frame <paramref name="index"/> from the message and hands it over, undisposed.</summary>
    private Message Take(int index)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)_count, nameof(index));
        Message frame = _frames[index];
        _frames.RemoveAt(index);
        _count--;
        return frame;
    }

    private void ThrowIfEmpty()
    {
        if (_count == 0)
        {
            Internal.ThrowHelper.ThrowInvalidOperation("The multipart message has no frames.");
        }
    }
}
