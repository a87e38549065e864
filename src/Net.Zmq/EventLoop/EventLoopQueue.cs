using System.Collections.Concurrent;
using Net.Zmq.Internal;

namespace Net.Zmq;

/// <summary>
/// A thread-safe queue of an <see cref="EventLoop"/>, made by <see cref="EventLoop.AddQueue{T}"/>: <see cref="Enqueue"/>
/// from any thread wakes the loop, and the loop thread hands each item, in order, to the queue's handler. The way to
/// give the loop work from other threads (what to send, what changed) without touching its sockets from there.
/// </summary>
/// <remarks>
/// Items are handed over in batches of at most a few hundred per pass, so a queue that is fed without pause never
/// starves the loop's sockets and timers. Enqueueing allocates nothing once the queue has grown to its working size
/// (a struct <typeparamref name="T"/> is not boxed), and at most one wake-up is signalled per pass of the loop, however
/// many items arrive.
/// </remarks>
/// <typeparam name="T">The type of the items.</typeparam>
public sealed class EventLoopQueue<T> : IEventLoopQueue, IDisposable
{
    private readonly ConcurrentQueue<T> _items = new();
    private readonly EventLoop _loop;
    private readonly Action<T> _handler;
    private volatile bool _disposed;

    internal EventLoopQueue(EventLoop loop, Action<T> handler)
    {
        _loop = loop;
        _handler = handler;
    }

    /// <summary>The loop the queue belongs to.</summary>
    public EventLoop Loop => _loop;

    /// <summary>How many items wait to be handled.</summary>
    public int Count => _items.Count;

    /// <summary>Whether <see cref="Dispose"/> was called (or the loop was disposed).</summary>
    public bool IsDisposed => _disposed;

    /// <summary>Adds <paramref name="item"/> and wakes the loop; it is handled on the loop thread. Safe from any thread.</summary>
    /// <exception cref="ObjectDisposedException">The queue or its loop was disposed.</exception>
    public void Enqueue(T item)
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(this);
        }

        _items.Enqueue(item);
        _loop.Wake();
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
        while (budget-- > 0 && !_disposed && _items.TryDequeue(out T? item))
        {
            _handler(item);
        }

        return !_disposed && !_items.IsEmpty;
    }

    private void Close()
    {
        _disposed = true;
        _items.Clear();
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
