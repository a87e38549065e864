namespace Net.Zmq.Benchmarks;

/// <summary>
/// A server of a game-server mesh: an inbound ROUTER it binds (peers send to it) and an outbound ROUTER that connects
/// to the other servers' inbound ROUTERs (it sends through it). The outbound routing id is the node's name; the
/// inbound one is the name plus "-in".
/// </summary>
internal sealed class MeshNode : IDisposable
{
    public MeshNode(IRoundTripLibrary library, string name)
    {
        Id = System.Text.Encoding.ASCII.GetBytes(name);
        InboundId = System.Text.Encoding.ASCII.GetBytes(name + "-in");
        Inbound = library.Create(SocketKind.Router, InboundId);
        Outbound = library.Create(SocketKind.Router, Id);
        Endpoint = Inbound.BindLocal();
    }

    public byte[] Id { get; }

    public byte[] InboundId { get; }

    public IRoundTripSocket Inbound { get; }

    public IRoundTripSocket Outbound { get; }

    public string Endpoint { get; }

    /// <summary>Connects both nodes' outbound ROUTERs to the other's inbound one and waits until both can route.</summary>
    public static void Link(MeshNode a, MeshNode b)
    {
        a.Outbound.Connect(b.Endpoint);
        b.Outbound.Connect(a.Endpoint);
        Span<byte> frame = stackalloc byte[64];
        foreach ((MeshNode from, MeshNode to) in new[] { (a, b), (b, a) })
        {
            from.Outbound.SendRoutingId(to.InboundId);
            from.Outbound.Send("hello"u8, more: false);
            to.Inbound.Receive(frame);
            to.Inbound.Receive(frame);
        }
    }

    public void Dispose()
    {
        Outbound.Dispose();
        Inbound.Dispose();
    }
}
