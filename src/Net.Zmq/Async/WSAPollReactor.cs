using System.Net;
using System.Net.Sockets;
using NetSocket = System.Net.Sockets.Socket;
using NetSocketType = System.Net.Sockets.SocketType;
using System.Runtime.Versioning;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// The reactor on Windows, where libzmq's <c>ZMQ_FD</c> is a <c>SOCKET</c>: WSAPoll over every watched descriptor
/// plus a loopback UDP socket that a registration writes to, so that the set is rebuilt at once. WSAPoll reports
/// readiness for as long as it lasts; a pump drains it, and a pump left to the thread holding a socket's gate ends
/// when that thread leaves, so a wait after a round in which every pump was left to others pauses a millisecond
/// instead of spinning.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed unsafe class WSAPollReactor : SocketReactor
{
    private readonly object _watchedGate = new();
    private readonly Dictionary<nint, int> _watched = [];
    private readonly NetSocket _wakeReceiver = new(AddressFamily.InterNetwork, NetSocketType.Dgram, ProtocolType.Udp);
    private readonly NetSocket _wakeSender = new(AddressFamily.InterNetwork, NetSocketType.Dgram, ProtocolType.Udp);
    private readonly byte[] _drain = new byte[64];
    private bool _changed = true;

    // The set the reactor thread waits on, rebuilt when a socket is watched or unwatched.
    private WinSock.PollDescriptor[] _descriptors = [];
    private int[] _descriptorSlots = [];

    internal WSAPollReactor()
    {
        _wakeReceiver.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _wakeReceiver.Blocking = false;
        _wakeSender.Connect(_wakeReceiver.LocalEndPoint!);
    }

    protected override void Watch(nint fd, int slot)
    {
        lock (_watchedGate)
        {
            _watched[fd] = slot;
            _changed = true;
        }

        Wake();
    }

    protected override void Unwatch(nint fd, int slot)
    {
        lock (_watchedGate)
        {
            _watched.Remove(fd);
            _changed = true;
        }

        Wake();
    }

    /// <summary>WSAPoll would wake every waiter for the same descriptor: one thread waits, and never runs a continuation.</summary>
    protected override int WaitingThreads => 1;

    protected override int Wait(Span<ulong> ready, bool stalled)
    {
        if (stalled)
        {
            // WSAPoll reports readiness for as long as it lasts: pause instead of spinning while the gates' holders pump.
            Thread.Sleep(1);
        }

        lock (_watchedGate)
        {
            if (_changed)
            {
                _changed = false;
                (_descriptors, _descriptorSlots) = Snapshot();
            }
        }

        int count;
        fixed (WinSock.PollDescriptor* first = _descriptors)
        {
            count = WinSock.Poll(first, (uint)_descriptors.Length, -1);
        }

        if (count == WinSock.SocketError)
        {
            // A descriptor closed between the snapshot and the wait; the unregistration rebuilds the set.
            Thread.Sleep(1);
            return 0;
        }

        if (_descriptors[0].ReturnedEvents != 0)
        {
            DrainWakeups();
        }

        int found = 0;
        for (int i = 1; i < _descriptors.Length && found < ready.Length; i++)
        {
            if (_descriptors[i].ReturnedEvents != 0)
            {
                ready[found++] = (ulong)_descriptorSlots[i];
            }
        }

        return found;
    }

    private void Wake() => _wakeSender.Send([0]);

    private (WinSock.PollDescriptor[] Descriptors, int[] Slots) Snapshot()
    {
        var descriptors = new WinSock.PollDescriptor[_watched.Count + 1];
        var slots = new int[descriptors.Length];
        descriptors[0] = new WinSock.PollDescriptor { Socket = _wakeReceiver.Handle, Events = WinSock.PollReadNormal };
        int i = 1;
        foreach ((nint fd, int slot) in _watched)
        {
            descriptors[i] = new WinSock.PollDescriptor { Socket = fd, Events = WinSock.PollReadNormal };
            slots[i++] = slot;
        }

        return (descriptors, slots);
    }

    private void DrainWakeups()
    {
        while (_wakeReceiver.Available > 0)
        {
            _wakeReceiver.Receive(_drain);
        }
    }
}
