namespace Net.Zmq.Benchmarks;

/// <summary>A messaging library under test: Net.Zmq or NetMQ.</summary>
internal interface IRoundTripLibrary : IDisposable
{
    string Name { get; }

    /// <summary>A socket with HWM 0 and linger 0; <paramref name="routingId"/> is set when not empty.</summary>
    IRoundTripSocket Create(SocketKind kind, ReadOnlySpan<byte> routingId = default);
}
