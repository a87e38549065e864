namespace Net.Zmq;

/// <summary>
/// The enabled timers of an <see cref="EventLoop"/>, earliest due first: a binary min-heap in which each timer knows
/// its own position, so that changing or removing one is O(log n) and nothing is allocated once the array has grown.
/// Guarded by the loop's lock.
/// </summary>
internal sealed class TimerHeap
{
    private EventLoopTimer[] _items = new EventLoopTimer[8];

    internal int Count { get; private set; }

    /// <summary>The earliest timer, or null.</summary>
    internal EventLoopTimer? Peek() => Count == 0 ? null : _items[0];

    /// <summary>Adds <paramref name="timer"/>, or moves it to its place after its due time changed.</summary>
    internal void Set(EventLoopTimer timer)
    {
        if (timer.HeapIndex >= 0)
        {
            if (!SiftUp(timer.HeapIndex))
            {
                SiftDown(timer.HeapIndex);
            }

            return;
        }

        if (Count == _items.Length)
        {
            Array.Resize(ref _items, Count * 2);
        }

        Place(timer, Count++);
        SiftUp(timer.HeapIndex);
    }

    /// <summary>Removes <paramref name="timer"/> if it is in the heap.</summary>
    internal void Remove(EventLoopTimer timer)
    {
        int index = timer.HeapIndex;
        if (index < 0)
        {
            return;
        }

        timer.HeapIndex = -1;
        Count--;
        if (index != Count)
        {
            Place(_items[Count], index);
            if (!SiftUp(index))
            {
                SiftDown(index);
            }
        }

        _items[Count] = null!;
    }

    /// <summary>Removes every timer.</summary>
    internal void Clear()
    {
        for (int i = 0; i < Count; i++)
        {
            _items[i].HeapIndex = -1;
            _items[i] = null!;
        }

        Count = 0;
    }

    private void Place(EventLoopTimer timer, int index)
    {
        _items[index] = timer;
        timer.HeapIndex = index;
    }

    private bool SiftUp(int index)
    {
        bool moved = false;
        while (index > 0)
        {
            int parent = (index - 1) / 2;
            if (_items[parent].Due <= _items[index].Due)
            {
                break;
            }

            Swap(index, parent);
            index = parent;
            moved = true;
        }

        return moved;
    }

    private void SiftDown(int index)
    {
        while (true)
        {
            int left = (2 * index) + 1;
            if (left >= Count)
            {
                return;
            }

            int smallest = left + 1 < Count && _items[left + 1].Due < _items[left].Due ? left + 1 : left;
            if (_items[index].Due <= _items[smallest].Due)
            {
                return;
            }

            Swap(index, smallest);
            index = smallest;
        }
    }

    private void Swap(int a, int b)
    {
        EventLoopTimer first = _items[a];
        Place(_items[b], a);
        Place(first, b);
    }
}
