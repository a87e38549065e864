namespace Net.Zmq.Benchmarks;

/// <summary>
/// The few socket operations the round-trip scenarios need, so that each scenario is written once and run on Net.Zmq
/// and on NetMQ with the same receive strategy: a blocking receive into a reused buffer, on a dedicated thread.
/// </summary>
internal interface IRoundTripSocket : IDisposable
{
    /// <summary>Binds to an ephemeral port on 127.0.0.1 and returns the endpoint.</summary>
    string BindLocal();

    void Connect(string endpoint);

    void Send(ReadOnlySpan<byte> frame, bool more);

    /// <summary>Blocks for the next frame, copies it into <paramref name="buffer"/> and returns its size.</summary>
    int Receive(Span<byte> buffer);

    /// <summary>ROUTER only: waits until <paramref name="peer"/> is routable, then sends the routing-id frame of a message.</summary>
    void SendRoutingId(ReadOnlySpan<byte> peer);
}
