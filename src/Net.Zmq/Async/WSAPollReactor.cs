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
/// when that thread leaves, so a round in which every pump was left to others pauses a millisecond instead of
/// spinning.
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

    protected override void Run()
    {
        WinSock.PollDescriptor[] descriptors = [];
        int[] slots = [];
        while (true)
        {
            lock (_watchedGate)
            {
                if (_changed)
                {
                    _changed = false;
                    (descriptors, slots) = Snapshot();
                }
            }

            int count;
            fixed (WinSock.PollDescriptor* first = descriptors)
            {
                count = WinSock.Poll(first, (uint)descriptors.Length, -1);
            }

            if (count == WinSock.SocketError)
            {
                // A descriptor closed between the snapshot and the wait; the unregistration rebuilds the set.
                Thread.Sleep(1);
                continue;
            }

            if (descriptors[0].ReturnedEvents != 0)
            {
                DrainWakeups();
            }

            bool progressed = false;
            for (int i = 1; i < descriptors.Length; i++)
            {
                if (descriptors[i].ReturnedEvents != 0)
                {
                    progressed |= Dispatch((ulong)slots[i]);
                }
            }

            if (count > 0 && !progressed && descriptors[0].ReturnedEvents == 0)
            {
                Thread.Sleep(1);
            }
        }
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
