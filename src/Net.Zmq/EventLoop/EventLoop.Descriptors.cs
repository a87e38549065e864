using Net.Zmq.Discovery;
using Net.Zmq.Internal;
using NetSocket = System.Net.Sockets.Socket;

namespace Net.Zmq;

// What a Poller watches besides ZeroMQ sockets: .NET sockets, beacons and raw descriptors, polled by zmq_poll with the
// loop's sockets, their handlers run on the loop thread like the others.
public sealed partial class EventLoop
{
    /// <summary>
    /// Watches a .NET socket: <paramref name="receiveReady"/> runs on the loop thread whenever it is readable (data, a
    /// connection to accept, or the peer's close). The handler should read what is waiting, or it runs again on the next pass.
    /// </summary>
    /// <remarks>
    /// A socket disposed on the loop thread while registered leaves the loop before the next poll. From another thread,
    /// <see cref="Remove(NetSocket)"/> it first: disposed while the loop polls it, its descriptor may be closed or reused
    /// under the poll, which then fails and ends the loop.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="receiveReady"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The socket is already in this loop.</exception>
    /// <exception cref="ObjectDisposedException">The socket or the loop was disposed.</exception>
    public void Add(NetSocket socket, Action<NetSocket> receiveReady)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(receiveReady);
        AddEntry(new ReadableEntry<NetSocket>(socket, socket.Handle, receiveReady, static s => s.SafeHandle.IsClosed), "This .NET socket");
    }

    /// <summary>
    /// Watches a <see cref="Beacon"/>: <paramref name="receiveReady"/> runs on the loop thread whenever a datagram waits
    /// on it. Read it there with <see cref="Beacon.TryRecv"/> and <see cref="TimeSpan.Zero"/> (false when the beacon's
    /// filter or echo rule dropped the datagram).
    /// </summary>
    /// <remarks>
    /// A beacon disposed on the loop thread while registered leaves the loop before the next poll. From another thread,
    /// <see cref="Remove(Beacon)"/> it first, as for a .NET socket.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="beacon"/> or <paramref name="receiveReady"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The beacon is already in this loop.</exception>
    /// <exception cref="ObjectDisposedException">The beacon or the loop was disposed.</exception>
    public void Add(Beacon beacon, Action<Beacon> receiveReady)
    {
        ArgumentNullException.ThrowIfNull(beacon);
        ArgumentNullException.ThrowIfNull(receiveReady);
        ObjectDisposedException.ThrowIf(beacon.IsDisposed, beacon);
        AddEntry(new ReadableEntry<Beacon>(beacon, beacon.Handle, receiveReady, static b => b.IsDisposed), "This beacon");
    }

    /// <summary>
    /// Watches an OS descriptor (a file descriptor, or a SOCKET handle on Windows) for <paramref name="events"/>
    /// (<see cref="PollEvents.In"/>, <see cref="PollEvents.Out"/>): <paramref name="ready"/> runs on the loop thread with
    /// the descriptor and the events that occurred, as long as they last.
    /// </summary>
    /// <remarks>The loop cannot tell when a descriptor is closed: remove it before closing it.</remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="fileDescriptor"/> is negative.</exception>
    /// <exception cref="ArgumentException"><paramref name="events"/> asks for neither In nor Out.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="ready"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The descriptor is already in this loop.</exception>
    /// <exception cref="ObjectDisposedException">The loop was disposed.</exception>
    public void Add(nint fileDescriptor, PollEvents events, Action<nint, PollEvents> ready)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fileDescriptor);
        ArgumentNullException.ThrowIfNull(ready);
        if ((events & (PollEvents.In | PollEvents.Out)) == 0)
        {
            ThrowHelper.ThrowArgument("Watch a descriptor for PollEvents.In, PollEvents.Out or both.", nameof(events));
        }

        AddEntry(new DescriptorEntry(fileDescriptor, events & (PollEvents.In | PollEvents.Out), ready), $"Descriptor {fileDescriptor}");
    }

    /// <summary>Stops watching a .NET socket; once this returns its handler is not called again (see <see cref="Remove(Socket)"/>).</summary>
    /// <returns>False when the socket was not in the loop.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    public bool Remove(NetSocket socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        return RemoveKey(socket);
    }

    /// <summary>Stops watching a beacon; once this returns its handler is not called again (see <see cref="Remove(Socket)"/>).</summary>
    /// <returns>False when the beacon was not in the loop.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="beacon"/> is null.</exception>
    public bool Remove(Beacon beacon)
    {
        ArgumentNullException.ThrowIfNull(beacon);
        return RemoveKey(beacon);
    }

    /// <summary>Stops watching a descriptor; once this returns its handler is not called again and it may be closed.</summary>
    /// <returns>False when the descriptor was not in the loop.</returns>
    public bool Remove(nint fileDescriptor) => RemoveKey(fileDescriptor);

    private void AddEntry(Entry entry, string what)
    {
        lock (Gate)
        {
            ThrowIfDisposed();
            if (IndexOf(entry.Key) >= 0)
            {
                ThrowHelper.ThrowInvalidOperation($"{what} is already in this event loop.");
            }

            _sockets.Add(entry);
            _socketsVersion++;
        }

        WakeIfElsewhere();
    }

    /// <summary>A .NET socket or a beacon, watched for readability; <paramref name="isClosed"/> tells when it was disposed.</summary>
    private sealed class ReadableEntry<T>(T target, nint descriptor, Action<T> receiveReady, Func<T, bool> isClosed)
        : Entry(target, 0, descriptor)
        where T : class
    {
        internal override PollEvents Events => PollEvents.In;

        internal override bool IsClosed => isClosed(target);

        internal override void Dispatch(EventLoop loop, short events)
        {
            if ((events & (short)(PollEvents.In | PollEvents.Error)) != 0 && !Removed && !isClosed(target))
            {
                receiveReady(target);
            }
        }
    }

    /// <summary>A raw descriptor, watched for the events it was added with.</summary>
    private sealed class DescriptorEntry(nint descriptor, PollEvents events, Action<nint, PollEvents> ready)
        : Entry(descriptor, 0, descriptor)
    {
        internal override PollEvents Events => events;

        internal override bool IsClosed => false;

        internal override void Dispatch(EventLoop loop, short returned)
        {
            if (!Removed)
            {
                ready(Descriptor, (PollEvents)returned);
            }
        }
    }
}
