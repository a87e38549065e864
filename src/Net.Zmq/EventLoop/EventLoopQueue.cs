using System.Collections.Concurrent;
using System.Threading.Channels;
using Net.Zmq.Internal;

namespace Net.Zmq;

/// <summary>
/// A thread-safe queue of an <see cref="EventLoop"/>, made by <see cref="EventLoop.AddQueue{T}(Action{T})"/>:
/// <see cref="Enqueue"/> from any thread wakes the loop, and the loop thread hands each item, in order, to the queue's
/// handler. The way to give the loop work from other threads (what to send, what changed) without touching its sockets
/// from there.
/// </summary>
/// <remarks>
/// <para>
/// Items are handed over in batches of at most a few hundred per pass, so a queue that is fed without pause never
/// starves the loop's sockets and timers. Enqueueing allocates nothing once the queue has grown to its working size
/// (a struct <typeparamref name="T"/> is not boxed), and at most one wake-up is signalled per pass of the loop, however
/// many items arrive.
/// </para>
/// <para>
/// A queue made with a capacity (<see cref="EventLoop.AddQueue{T}(Action{T}, int)"/>) holds at most that many items
/// waiting, as a bounded <see cref="System.Threading.Channels.Channel"/> does (it is built on one): when it is full
/// <see cref="TryEnqueue"/> returns false, <see cref="EnqueueAsync"/> waits for room, and <see cref="Enqueue"/> throws.
/// Without a capacity it grows as far as producers outrun the loop.
/// </para>
/// </remarks>
/// <typeparam name="T">The type of the items.</typeparam>
public sealed class EventLoopQueue<T> : IEventLoopQueue, IDisposable
{
    // One of the two holds the items: the concurrent queue without a capacity, the bounded channel with one.
    private readonly ConcurrentQueue<T>? _items;
    private readonly Channel<T>? _bounded;
    private readonly EventLoop _loop;
    private readonly Action<T> _handler;
    private volatile bool _disposed;

    internal EventLoopQueue(EventLoop loop, Action<T> handler, int? capacity)
    {
        _loop = loop;
        _handler = handler;
        Capacity = capacity;
        if (capacity is { } bound)
        {
            _bounded = Channel.CreateBounded<T>(new BoundedChannelOptions(bound)
            {
                SingleReader = true,
                FullMode = BoundedChannelFullMode.Wait,
                AllowSynchronousContinuations = false,
            });
        }
        else
        {
            _items = new ConcurrentQueue<T>();
        }
    }

    /// <summary>The loop the queue belongs to.</summary>
    public EventLoop Loop => _loop;

    /// <summary>The most items the queue holds waiting; null when it has no bound.</summary>
    public int? Capacity { get; }

    /// <summary>
    /// How many items wait to be handled, at the moment it is read: other threads may have changed it by the time it
    /// is used, and an item the loop has taken out but whose handler has not yet returned is not counted. For
    /// monitoring and tests, not for deciding whether an enqueue will succeed (use <see cref="TryEnqueue"/>).
    /// </summary>
    public int Count => _items?.Count ?? _bounded!.Reader.Count;

    /// <summary>Whether <see cref="Dispose"/> was called (or the loop was disposed).</summary>
    public bool IsDisposed => _disposed;

    /// <summary>Adds <paramref name="item"/> and wakes the loop; it is handled on the loop thread. Safe from any thread.</summary>
    /// <exception cref="ObjectDisposedException">The queue or its loop was disposed.</exception>
    /// <exception cref="InvalidOperationException">The queue has a capacity and is full: use <see cref="TryEnqueue"/> or <see cref="EnqueueAsync"/>.</exception>
    public void Enqueue(T item)
    {
        if (!TryEnqueue(item))
        {
            ThrowHelper.ThrowInvalidOperation(
                $"The event loop queue is full ({Capacity} items wait): the loop handles them more slowly than they come. " +
                "Use TryEnqueue (false when full) to drop or retry, or await EnqueueAsync to wait for room.");
        }
    }

    /// <summary>Adds <paramref name="item"/> and wakes the loop, unless the queue is full. Safe from any thread.</summary>
    /// <returns>True when added; false when the queue has a capacity and holds that many items (nothing was added).</returns>
    /// <exception cref="ObjectDisposedException">The queue or its loop was disposed.</exception>
    public bool TryEnqueue(T item)
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }

        if (_items is not null)
        {
            _items.Enqueue(item);
        }
        else if (!_bounded!.Writer.TryWrite(item))
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return false;
        }

        _loop.Wake();
        return true;
    }

    /// <summary>
    /// Adds <paramref name="item"/> and wakes the loop, first waiting for room while the queue is full (at once
    /// without a capacity, or while there is room). Safe from any thread, the loop's own included.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The queue or its loop was disposed, before or during the wait.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled before there was room; nothing was added.</exception>
    public ValueTask EnqueueAsync(T item, CancellationToken cancellationToken = default)
    {
        if (TryEnqueue(item))
        {
            return ValueTask.CompletedTask;
        }

        return WaitForRoomAsync(item, cancellationToken);
    }

    /// <summary>Removes the queue from its loop; the items still in it are dropped. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _loop.RemoveQueue(this);
        Close();
    }

    void IEventLoopQueue.Close() => Close();

    bool IEventLoopQueue.Drain(int budget)
    {
        if (_items is not null)
        {
            while (budget-- > 0 && !_disposed && !_loop.IsStopRequested && _items.TryDequeue(out T? item))
            {
                _handler(item);
            }

            return !_disposed && !_items.IsEmpty;
        }

        ChannelReader<T> reader = _bounded!.Reader;
        while (budget-- > 0 && !_disposed && !_loop.IsStopRequested && reader.TryRead(out T? item))
        {
            _handler(item);
        }

        return !_disposed && reader.Count != 0;
    }

    private async ValueTask WaitForRoomAsync(T item, CancellationToken cancellationToken)
    {
        try
        {
            await _bounded!.Writer.WriteAsync(item, cancellationToken).ConfigureAwait(false);
        }
        catch (ChannelClosedException)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }

        _loop.Wake();
    }

    private void Close()
    {
        _disposed = true;
        if (_items is not null)
        {
            _items.Clear();
            return;
        }

        _bounded!.Writer.TryComplete(); // ends the EnqueueAsync calls waiting for room
        while (_bounded.Reader.TryRead(out _))
        {
        }
    }
}

/// <summary>What the loop needs of an <see cref="EventLoopQueue{T}"/> of any item type.</summary>
internal interface IEventLoopQueue
{
    /// <summary>Hands at most <paramref name="budget"/> items to the handler; true when items remain.</summary>
    bool Drain(int budget);

    /// <summary>Marks the queue disposed and drops its items (the loop is being disposed).</summary>
    void Close();
}
