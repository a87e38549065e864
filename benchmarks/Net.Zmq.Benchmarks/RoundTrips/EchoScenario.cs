namespace Net.Zmq.Benchmarks;

/// <summary>
/// A client (REQ or DEALER) and an echo server (REP or ROUTER). An operation sends <c>requests</c> requests, then
/// receives their replies: one for a round trip, ten for the "Sequential 10 messages" scenario (DEALER only).
/// </summary>
internal sealed class EchoScenario : RoundTripScenario
{
    private readonly IRoundTripSocket _server;
    private readonly IRoundTripSocket _client;
    private readonly bool _routed;
    private readonly int _requests;
    private readonly byte[] _payload;
    private readonly byte[] _reply;

    public EchoScenario(IRoundTripLibrary library, bool routed, int size, int requests = 1)
    {
        if (!routed && requests != 1)
        {
            throw new ArgumentOutOfRangeException(nameof(requests), "REQ sends one request at a time.");
        }

        _routed = routed;
        _requests = requests;
        _payload = new byte[size];
        _payload.AsSpan().Fill((byte)'x');
        _reply = new byte[size];
        _server = library.Create(routed ? SocketKind.Router : SocketKind.Rep);
        _client = library.Create(routed ? SocketKind.Dealer : SocketKind.Req);
        _client.Connect(_server.BindLocal());
        StartResponder(Serve);
    }

    public override void RunOnce()
    {
        for (int i = 0; i < _requests; i++)
        {
            _client.Send(_payload, more: false);
        }

        for (int i = 0; i < _requests; i++)
        {
            _client.Receive(_reply);
        }
    }

    protected override void SendFinalRequest() => _client.Send(_payload, more: false);

    protected override void CloseSockets()
    {
        _client.Dispose();
        _server.Dispose();
    }

    private void Serve()
    {
        byte[] id = new byte[256];
        byte[] buffer = new byte[_payload.Length];
        while (true)
        {
            int idSize = _routed ? _server.Receive(id) : 0;
            int size = _server.Receive(buffer);
            if (Stopping)
            {
                return;
            }

            if (_routed)
            {
                _server.Send(id.AsSpan(0, idSize), more: true);
            }

            _server.Send(buffer.AsSpan(0, size), more: false);
        }
    }
}
