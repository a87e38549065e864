using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Send;

/// <summary>
/// Every synchronous way to send one frame, by name, so that each test of this area runs once per overload: the
/// span, the array, the string, native memory, a <see cref="Message"/>, and the timed <c>TrySend</c>s.
/// </summary>
internal static class SendOverloads
{
    private delegate bool SendOne(Socket socket, byte[] payload, SendFlags flags);

    // Each entry sends payload as one frame. The string ones take payloads that are valid ASCII; the timed ones are
    // given no time to wait when DontWait is asked for, which is what DontWait means for them.
    private static readonly Dictionary<string, SendOne> s_overloads = new()
    {
        ["Send(ReadOnlySpan<byte>)"] = (socket, payload, flags) => socket.Send(payload.AsSpan(), flags),
        ["Send(byte[])"] = (socket, payload, flags) => socket.Send(payload, flags),
        ["Send(string)"] = (socket, payload, flags) => socket.Send(System.Text.Encoding.ASCII.GetString(payload), flags),
        ["Send(nint, int)"] = SendNative,
        ["Send(Message)"] = (socket, payload, flags) =>
        {
            using var message = new Message(payload);
            return socket.Send(message, flags);
        },
        ["TrySend(ReadOnlySpan<byte>, TimeSpan)"] = (socket, payload, flags) =>
            socket.TrySend(payload.AsSpan(), Wait(flags), flags & ~SendFlags.DontWait),
        ["TrySend(string, TimeSpan)"] = (socket, payload, flags) =>
            socket.TrySend(System.Text.Encoding.ASCII.GetString(payload), Wait(flags), flags & ~SendFlags.DontWait),
        ["TrySend(Message, TimeSpan)"] = (socket, payload, flags) =>
        {
            using var message = new Message(payload);
            return socket.TrySend(message, Wait(flags), flags & ~SendFlags.DontWait);
        },
    };

    /// <summary>The names of the overloads, for <c>[MemberData]</c>.</summary>
    public static TheoryData<string> Names => new(s_overloads.Keys);

    /// <summary>Sends <paramref name="payload"/> as one frame through the overload called <paramref name="name"/>.</summary>
    public static bool Send(string name, Socket socket, byte[] payload, SendFlags flags = SendFlags.None) =>
        s_overloads[name](socket, payload, flags);

    private static TimeSpan Wait(SendFlags flags) =>
        (flags & SendFlags.DontWait) != 0 ? TimeSpan.Zero : Timeouts.Wait;

    private static unsafe bool SendNative(Socket socket, byte[] payload, SendFlags flags)
    {
        fixed (byte* p = payload)
        {
            return socket.Send((nint)p, payload.Length, flags);
        }
    }
}
