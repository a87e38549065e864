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

    /// <summary>epoll_wait wakes one waiter per event, so several threads can wait on one set without waking together.</summary>
    protected override int WaitingThreads { get; } = Math.Clamp(Environment.ProcessorCount, 2, 16);

    protected override int Wait(Span<ulong> ready, bool stalled)
    {
        // Edge-triggered: a pump left to a gate's holder happens when it leaves the gate, so a stall needs no pause.
        byte* events = stackalloc byte[MaxReadyPerWait * 16];
        int count;
        while ((count = Epoll.Wait(_epoll, events, Math.Min(ready.Length, MaxReadyPerWait), -1)) < 0)
        {
            // EINTR is routine; anything else would repeat forever, so back off instead of spinning.
            if (Marshal.GetLastPInvokeError() != Errno.EINTR)
            {
                Thread.Sleep(10);
            }
        }

        for (int i = 0; i < count; i++)
        {
            ready[i] = Epoll.ReadData(events, i);
        }

        return count;
    }
}
