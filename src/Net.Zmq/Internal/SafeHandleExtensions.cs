using System.Runtime.InteropServices;

namespace Net.Zmq.Internal;

/// <summary>Keeps a native handle alive for the duration of a call, with a clear error once its owner is disposed.</summary>
internal static class SafeHandleExtensions
{
    /// <summary>Adds a reference and returns the raw handle; pair with <see cref="SafeHandle.DangerousRelease"/> in a finally.</summary>
    /// <exception cref="ObjectDisposedException">The owner was disposed.</exception>
    internal static nint Enter(this SafeHandle handle, object owner)
    {
        bool added = false;
        try
        {
            handle.DangerousAddRef(ref added);
        }
        catch (ObjectDisposedException)
        {
            ThrowHelper.ThrowObjectDisposed(owner);
        }

        return handle.DangerousGetHandle();
    }
}
