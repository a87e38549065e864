namespace Net.Zmq.Benchmarks;

/// <summary>
/// A client's request that server A must pass on to server B: the client's DEALER sends 64 bytes to A's inbound
/// ROUTER; A forwards them through its outbound ROUTER to B; B answers through its outbound ROUTER to A's inbound one;
/// A returns the answer to the client. An operation is the client's whole round trip.
/// </summary>
internal sealed class ServerToServerScenario : RoundTripScenario
{
    private const int PayloadSize = 64;
    private readonly MeshNode _a;
    private readonly MeshNode _b;
    private readonly IRoundTripSocket _client;
    private readonly byte[] _payload = new byte[PayloadSize];
    private readonly byte[] _reply = new byte[PayloadSize];

    public ServerToServerScenario(IRoundTripLibrary library)
    {
        _a = new MeshNode(library, "A");
        _b = new MeshNode(library, "B");
        MeshNode.Link(_a, _b);
        _client = library.Create(SocketKind.Dealer, "client"u8);
        _client.Connect(_a.Endpoint);
        StartResponder(ServeA);
        StartResponder(ServeB);
    }

    public override void RunOnce()
    {
        _client.Send(_payload, more: false);
        _client.Receive(_reply);
    }

    protected override void SendFinalRequest() => _client.Send(_payload, more: false);

    protected override void CloseSockets()
    {
        _client.Dispose();
        _a.Dispose();
        _b.Dispose();
    }

    private void ServeA()
    {
        byte[] sender = new byte[64];
        byte[] client = new byte[64];
        int clientSize = 0;
        byte[] buffer = new byte[PayloadSize];
        while (true)
        {
            int senderSize = _a.Inbound.Receive(sender);
            int size = _a.Inbound.Receive(buffer);
            if (sender.AsSpan(0, senderSize).SequenceEqual(_b.Id))
            {
                _a.Inbound.Send(client.AsSpan(0, clientSize), more: true);
                _a.Inbound.Send(buffer.AsSpan(0, size), more: false);
                continue;
            }

            sender.AsSpan(0, senderSize).CopyTo(client);
            clientSize = senderSize;
            _a.Outbound.Send(_b.InboundId, more: true);
            _a.Outbound.Send(buffer.AsSpan(0, size), more: false);
            if (Stopping)
            {
                return;
            }
        }
    }

    private void ServeB()
    {
        byte[] id = new byte[64];
        byte[] buffer = new byte[PayloadSize];
        while (true)
        {
            _b.Inbound.Receive(id);
            int size = _b.Inbound.Receive(buffer);
            if (Stopping)
            {
                return;
            }

            _b.Outbound.Send(_a.InboundId, more: true);
            _b.Outbound.Send(buffer.AsSpan(0, size), more: false);
        }
    }
}
