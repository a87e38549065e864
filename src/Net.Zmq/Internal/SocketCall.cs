using System.Runtime.CompilerServices;

namespace Net.Zmq.Internal;

/// <summary>
/// One call on a <see cref="Socket"/>, from <see cref="SocketGate.BeginCall"/> to <see cref="Dispose"/>: while it lasts
/// the calling thread holds the socket's claim, the native socket stays open, and in async mode the driver's gate is
/// held (see <see cref="SocketGate"/>). <c>using SocketCall call = BeginCall();</c> then pass <see cref="Native"/> to
/// libzmq; the paths that end it without <c>finally</c> follow the rule in <see cref="SocketGate"/>'s header.
/// </summary>
internal readonly ref struct SocketCall
{
    private readonly SocketGate _gate;
    private readonly Message? _message;

    /// <param name="gate">The socket's gate.</param>
    /// <param name="native">Its native socket.</param>
    internal SocketCall(SocketGate gate, nint native)
    {
        _gate = gate;
        Native = native;
    }

    private SocketCall(SocketGate gate, nint native, Message message)
    {
        _gate = gate;
        Native = native;
        _message = message;
    }

    /// <summary>The native socket, valid until <see cref="Dispose"/>.</summary>
    internal nint Native { get; }

    /// <summary>This call, also holding <paramref name="message"/>, which the caller claimed (<see cref="Message.TryEnterCall"/>), until it ends.</summary>
    internal SocketCall Holding(Message message) => new(_gate, Native, message);

    /// <summary>Ends the call (and gives back the message it holds, if any).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        _message?.ExitCall();
        _gate.EndCall();
    }
}
