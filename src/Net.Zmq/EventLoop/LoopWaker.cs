using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;
using Net.Zmq.Interop;
using NetSocket = System.Net.Sockets.Socket;
using NetSocketType = System.Net.Sockets.SocketType;

namespace Net.Zmq;

/// <summary>
/// The descriptor an <see cref="EventLoop"/> polls beside its sockets so that another thread can end its wait: an
/// <c>eventfd</c> on Linux; elsewhere (Windows, where <c>zmq_poll</c> takes only a <c>SOCKET</c>, and macOS) a loopback
/// UDP socket that a second socket writes one byte to. <see cref="Signal"/> may be called from any thread.
/// </summary>
internal abstract class LoopWaker : IDisposable
{
    /// <summary>The descriptor to poll for <see cref="PollEvents.In"/>.</summary>
    internal abstract nint Descriptor { get; }

    internal static LoopWaker Create() => OperatingSystem.IsLinux() ? new EventFdWaker() : new UdpWaker();

    /// <summary>Makes <see cref="Descriptor"/> readable.</summary>
    internal abstract void Signal();

    /// <summary>Makes <see cref="Descriptor"/> unreadable again; called on the loop thread after it was seen readable.</summary>
    internal abstract void Drain();

    public abstract void Dispose();

    private sealed unsafe class EventFdWaker : LoopWaker
    {
        private readonly SafeFileHandle _handle;
        private readonly int _fd;

        internal EventFdWaker()
        {
            _fd = EventFd.Create(0, EventFd.NonBlocking | EventFd.CloseOnExec);
            if (_fd < 0)
            {
                throw new IOException($"eventfd failed (errno {Marshal.GetLastPInvokeError()}): the event loop cannot be woken.");
            }

            _handle = new SafeFileHandle(_fd, ownsHandle: true);
        }

        internal override nint Descriptor => _fd;

        internal override void Signal()
        {
            // Never blocks: the counter would have to reach 2^64 - 2 first. The reference keeps the descriptor from
            // being closed, and its number reused by another file, under a late signal racing the loop's Dispose.
            bool added = false;
            try
            {
                _handle.DangerousAddRef(ref added);
                ulong one = 1;
                _ = EventFd.Write(_fd, &one, sizeof(ulong));
            }
            catch (ObjectDisposedException)
            {
                // The loop is gone: nobody to wake.
            }
            finally
            {
                if (added)
                {
                    _handle.DangerousRelease();
                }
            }
        }

        internal override void Drain()
        {
            ulong value;
            _ = EventFd.Read(_fd, &value, sizeof(ulong)); // EAGAIN when already drained: nothing to do
        }

        public override void Dispose() => _handle.Dispose();
    }

    private sealed class UdpWaker : LoopWaker
    {
        private static readonly byte[] s_byte = [1];
        private readonly NetSocket _receiver = new(AddressFamily.InterNetwork, NetSocketType.Dgram, ProtocolType.Udp);
        private readonly NetSocket _sender = new(AddressFamily.InterNetwork, NetSocketType.Dgram, ProtocolType.Udp);
        private readonly byte[] _drain = new byte[16];

        internal UdpWaker()
        {
            _receiver.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            _receiver.Blocking = false;
            _sender.Connect(_receiver.LocalEndPoint!);
        }

        internal override nint Descriptor => _receiver.Handle;

        internal override void Signal()
        {
            try
            {
                _sender.Send(s_byte);
            }
            catch (ObjectDisposedException)
            {
                // The loop is gone: nobody to wake.
            }
        }

        internal override void Drain()
        {
            while (_receiver.Available > 0)
            {
                _receiver.Receive(_drain);
            }
        }

        public override void Dispose()
        {
            _sender.Dispose();
            _receiver.Dispose();
        }
    }
}
