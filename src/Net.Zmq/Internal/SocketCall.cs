using System.Runtime.CompilerServices;

namespace Net.Zmq.Internal;

/// <summary>
/// One call on a <see cref="Socket"/>, from <see cref="Socket.BeginCall"/> to <see cref="Dispose"/>: while it lasts the
/// calling thread owns the socket, the native socket stays open (a concurrent <see cref="Socket.Dispose"/> closes it
/// when the call ends), and, once the socket is in async use, the async driver's gate is held so the reactor never
/// calls libzmq on it at the same time. <c>using SocketCall call = BeginCall();</c> then pass <see cref="Native"/> to libzmq.
/// The single-frame send and receive paths call <see cref="Dispose"/> themselves instead of a <c>finally</c>
/// (which the JIT compiles to a funclet called on every message): between begin and end they run only the libzmq call,
/// which cannot throw, and their failure path ends the call before it returns false or throws.
/// </summary>
internal readonly ref struct SocketCall
{
    private readonly Socket _socket;

    /// <param name="socket">The socket called.</param>
    /// <param name="native">Its native socket.</param>
    internal SocketCall(Socket socket, nint native)
    {
        _socket = socket;
        Native = native;
    }

    /// <summary>The native socket, valid until <see cref="Dispose"/>.</summary>
    internal nint Native { get; }

    /// <summary>Ends the call.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => _socket.EndCall();
}
