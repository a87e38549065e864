namespace Net.Zmq.Samples;

/// <summary>REQ/REP: a client asks, a server on another thread answers, in strict turns.</summary>
internal sealed class ReqRepSample : ISample
{
    private const int Requests = 5;

    public string Name => "req-rep";

    public string Description => "REQ client, REP server on another thread: strict request/reply turns over tcp";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket server = Sample.CreateSocket(context, SocketType.Rep);
        server.Bind(Sample.AnyPort);
        string endpoint = server.LastEndpoint;
        log.Info($"REP server bound to {endpoint}");

        // The server thread answers each request with its text in upper case.
        var serverThread = SampleThread.Start("rep-server", () =>
        {
            for (int i = 0; i < Requests; i++)
            {
                string request = server.RecvString();
                server.Send(request.ToUpperInvariant());
            }
        });

        using Socket client = Sample.CreateSocket(context, SocketType.Req);
        client.Connect(endpoint);

        int answered = 0;
        for (int i = 1; i <= Requests; i++)
        {
            string request = $"request {i}";
            client.Send(request);
            if (i == 1)
            {
                // REQ is strict: after a send it must receive before it may send again.
                try
                {
                    client.Send("one request too many");
                    log.Check(false, "a second send before the reply should be refused");
                }
                catch (ZmqException ex) when (ex.ErrorNumber == ZmqError.EFSM)
                {
                    log.Info("a second Send before the reply is refused with EFSM: REQ alternates send and receive");
                }
            }

            string reply = client.RecvString();
            if (log.Check(reply == request.ToUpperInvariant(), $"reply '{reply}' to '{request}'"))
            {
                answered++;
            }

            if (i <= 2 || i == Requests)
            {
                log.Info($"sent '{request}', got '{reply}'");
            }
        }

        serverThread.Join(Sample.Timeout);
        log.Check(answered == Requests, $"{answered} of {Requests} requests answered");
        log.Info($"{answered} of {Requests} requests answered correctly");
    }
}
