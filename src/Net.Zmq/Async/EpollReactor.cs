using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Net.Zmq.Interop;

namespace Net.Zmq.Async;

/// <summary>
/// The reactor on Linux: one epoll set, each <c>ZMQ_FD</c> registered edge-triggered. libzmq signals the descriptor
/// once per batch of commands, and the pump's final <c>ZMQ_EVENTS</c> read drains them and re-arms the edge.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class EpollReactor : SocketReactor
{
    private const int MaxEventsPerWait = 64;

    private readonly int _epoll;

    internal EpollReactor()
    {
        _epoll = Epoll.Create(Epoll.CloseOnExec);
        if (_epoll < 0)
        {
            throw new InvalidOperationException($"epoll_create1 failed (errno {Marshal.GetLastPInvokeError()}); async operations are unavailable.");
        }
    }

    protected override void Watch(nint fd, int slot)
    {
        byte* ev = stackalloc byte[16];
        Epoll.WriteEvent(ev, Epoll.In | Epoll.EdgeTriggered, (ulong)slot);
        if (Epoll.Control(_epoll, Epoll.Add, (int)fd, ev) != 0)
        {
            throw new InvalidOperationException($"epoll_ctl could not watch the socket's ZMQ_FD {fd} (errno {Marshal.GetLastPInvokeError()}).");
        }
    }

    protected override void Unwatch(nint fd, int slot)
    {
        byte* ev = stackalloc byte[16];
        Epoll.WriteEvent(ev, 0, 0);
        Epoll.Control(_epoll, Epoll.Delete, (int)fd, ev);
    }

    protected override void Run()
    {
        byte* events = stackalloc byte[MaxEventsPerWait * 16];
        while (true)
        {
            int count = Epoll.Wait(_epoll, events, MaxEventsPerWait, -1);
            if (count < 0)
            {
                // EINTR is routine; anything else would repeat forever, so back off instead of spinning.
                if (Marshal.GetLastPInvokeError() != Epoll.EINTR)
                {
                    Thread.Sleep(10);
                }

                continue;
            }

            for (int i = 0; i < count; i++)
            {
                // A pump left to the gate's holder happens when it leaves the gate: the edge is not lost.
                Dispatch(Epoll.ReadData(events, i));
            }
        }
    }
}
