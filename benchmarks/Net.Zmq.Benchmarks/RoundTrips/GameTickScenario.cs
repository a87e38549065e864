namespace Net.Zmq.Benchmarks;

/// <summary>
/// Two mesh servers, A and B. An operation is one game tick: A sends B a three-frame, 60-byte message (8-byte header,
/// 4-byte message id, 48-byte body) through its outbound ROUTER; B's thread receives it on its inbound ROUTER and
/// answers the same three frames through its own outbound ROUTER; A receives the answer on its inbound ROUTER.
/// </summary>
internal sealed class GameTickScenario : RoundTripScenario
{
    private readonly MeshNode _a;
    private readonly MeshNode _b;
    private readonly byte[] _header = new byte[8];
    private readonly byte[] _messageId = new byte[4];
    private readonly byte[] _body = new byte[48];
    private readonly byte[] _id = new byte[64];

    public GameTickScenario(IRoundTripLibrary library)
    {
        _a = new MeshNode(library, "A");
        _b = new MeshNode(library, "B");
        MeshNode.Link(_a, _b);
        StartResponder(Serve);
    }

    public override void RunOnce()
    {
        SendTick();
        IRoundTripSocket inbound = _a.Inbound;
        inbound.Receive(_id);
        inbound.Receive(_header);
        inbound.Receive(_messageId);
        inbound.Receive(_body);
    }

    protected override void SendFinalRequest() => SendTick();

    protected override void CloseSockets()
    {
        _a.Dispose();
        _b.Dispose();
    }

    private void SendTick()
    {
        IRoundTripSocket outbound = _a.Outbound;
        outbound.Send(_b.InboundId, more: true);
        outbound.Send(_header, more: true);
        outbound.Send(_messageId, more: true);
        outbound.Send(_body, more: false);
    }

    private void Serve()
    {
        byte[] id = new byte[64];
        byte[] header = new byte[8];
        byte[] messageId = new byte[4];
        byte[] body = new byte[48];
        while (true)
        {
            _b.Inbound.Receive(id);
            _b.Inbound.Receive(header);
            _b.Inbound.Receive(messageId);
            _b.Inbound.Receive(body);
            if (Stopping)
            {
                return;
            }

            _b.Outbound.Send(_a.InboundId, more: true);
            _b.Outbound.Send(header, more: true);
            _b.Outbound.Send(messageId, more: true);
            _b.Outbound.Send(body, more: false);
        }
    }
}
