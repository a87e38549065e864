namespace Net.Zmq.Samples;

/// <summary>SERVER/CLIENT (draft): clients ask, the server answers each through the routing id its request carried.</summary>
internal sealed class ServerClientSample : ISample
{
    private const int Clients = 3;

    public string Name => "server-client";

    public string Description => "SERVER answers three CLIENTs by Message.RoutingId over tcp (draft API; skipped without it)";

    public void Run(SampleLog log)
    {
        if (!Context.Has("draft"))
        {
            log.Info($"skipped: libzmq {Context.Version} has no draft API (Context.Has(\"draft\") is false); the bundled libzmq has it");
            return;
        }

        using var context = new Context();
        using Socket server = Sample.CreateSocket(context, SocketType.Server);
        server.Bind(Sample.AnyPort);
        log.Info($"SERVER bound to {server.LastEndpoint}");

        var clients = new List<Socket>();
        try
        {
            for (int i = 0; i < Clients; i++)
            {
                Socket client = Sample.CreateSocket(context, SocketType.Client);
                clients.Add(client);
                client.Connect(server.LastEndpoint);
                client.Send($"client {i}"); // single-part only: SendFlags.SendMore would be refused
            }

            // Each request carries the routing id of the client it came from; the reply goes back through it.
            using var request = new Message();
            for (int i = 0; i < Clients; i++)
            {
                server.Recv(request);
                log.Info($"request '{request}' from routing id {request.RoutingId}");
                using var reply = new Message($"hello, {request}") { RoutingId = request.RoutingId };
                server.Send(reply);
            }

            for (int i = 0; i < Clients; i++)
            {
                string reply = clients[i].RecvString();
                log.Check(reply == $"hello, client {i}", $"client {i} got '{reply}'");
            }
        }
        finally
        {
            foreach (Socket client in clients)
            {
                client.Dispose();
            }
        }
    }
}
