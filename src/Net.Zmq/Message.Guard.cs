using System.Diagnostics;
using Net.Zmq.Internal;

namespace Net.Zmq;

public sealed partial class Message
{
    /// <summary>Creates an empty message for a receive the library makes on the caller's behalf: guarded (see <see cref="Guard"/>).</summary>
    internal static Message ForCaller()
    {
        var message = new Message();
        message._guard = new Guard(message);
        return message;
    }

    /// <summary>Closes a guarded message its caller dropped; the guard's finalizer calls it.</summary>
    private void ReleaseDropped()
    {
        // An asynchronous operation holding the message keeps it reachable, so _asyncUse is Free here unless the
        // message was disposed while one ran (then the operation's exit closed it).
        if (!_disposed && Interlocked.CompareExchange(ref _asyncUse, Closed, Free) == Free)
        {
            _disposed = true;
            CloseNative();
        }
    }

    /// <summary>
    /// What a message the library hands to its caller (<see cref="Socket.Recv()"/>, the frames of
    /// <see cref="Socket.RecvMultipart()"/>) carries and a message the caller creates does not:
    /// <list type="bullet">
    /// <item>a finalizer, on this small object rather than on <see cref="Message"/>, so that only these messages take
    /// the runtime's slower path for finalizable objects. A dropped message is closed once the GC finds it
    /// unreachable; the guard refers to the message, so the message is still whole when the finalizer runs.</item>
    /// <item>the count of the native bytes of a frame held outside the <c>zmq_msg_t</c>, which
    /// <see cref="NativeMemoryPressure"/> reports to the GC, so that a loop that drops large frames and allocates
    /// little else still makes the GC run, and the finalizers with it.</item>
    /// <item>the copy that <see cref="Data"/> hands out for such a frame: memory the GC owns, because a span into it
    /// keeps it alive while a span into libzmq's memory would not keep the message alive. Small frames need no copy:
    /// their span points into the message object itself, which keeps it (and this guard) alive.</item>
    /// </list>
    /// Invariant: <see cref="Bytes"/> is null or holds the frame's current bytes plus what the caller wrote through
    /// it; every change of the frame (receive, send, rebuild, copy, move) calls <see cref="ContentChanged"/>, and
    /// every use of the frame's bytes by libzmq (send, copy, move) is preceded by <see cref="WriteBack"/>.
    /// </summary>
    private sealed class Guard(Message owner) : IDisposable
    {
        private readonly Message _owner = owner;

        // Native bytes counted in NativeMemoryPressure and not yet taken back.
        private long _pressure;

        ~Guard()
        {
            _owner.ReleaseDropped();
            ReleasePressure();
        }

        /// <summary>The GC-owned copy of the current frame that <see cref="Data"/> handed out; null until asked for.</summary>
        internal byte[]? Bytes { get; private set; }

        /// <summary>Returns the GC-owned copy of <paramref name="frame"/>, making it on first use.</summary>
        internal byte[] ManagedCopy(ReadOnlySpan<byte> frame) => Bytes ??= frame.ToArray();

        /// <summary>Puts the bytes written through <see cref="Bytes"/> into <paramref name="frame"/>, writing only when they differ (the frame may be shared by a copy another thread sends).</summary>
        internal void WriteBack(Span<byte> frame)
        {
            Debug.Assert(Bytes is null || Bytes.Length == frame.Length, "the copy is of the current frame: ContentChanged drops it");
            if (Bytes is { } bytes && !frame.SequenceEqual(bytes))
            {
                bytes.CopyTo(frame);
            }
        }

        /// <summary>The frame was replaced or taken: drops the copy and reports the new frame's native size.</summary>
        internal void ContentChanged()
        {
            Bytes = null;
            int size = _owner.Frame(out bool inline).Length;
            long native = inline ? 0 : size;
            if (native != _pressure)
            {
                ReleasePressure();
                NativeMemoryPressure.Add(native);
                _pressure = native;
            }
        }

        /// <summary>The owner disposed the message: nothing is left for the finalizer to do.</summary>
        public void Dispose()
        {
            GC.SuppressFinalize(this);
            Bytes = null;
            ReleasePressure();
        }

        private void ReleasePressure()
        {
            if (_pressure > 0)
            {
                NativeMemoryPressure.Remove(_pressure);
                _pressure = 0;
            }
        }
    }
}
