namespace Net.Zmq.Benchmarks;

/// <summary>The socket types the round-trip scenarios use.</summary>
internal enum SocketKind
{
    Req,
    Rep,
    Dealer,
    Router,
}
