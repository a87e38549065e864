using System.Collections.Concurrent;

namespace Net.Zmq.Samples;

/// <summary>
/// A request/reply broker: REQ clients talk to a ROUTER frontend, REP workers to a DEALER backend, and one thread moves
/// whole multipart messages between the two with a <see cref="Poller"/>. The ROUTER adds the client's routing id to each
/// request; the reply carries it back, so the frontend knows which client to answer.
/// </summary>
internal sealed class RouterDealerSample : ISample
{
    private const int Clients = 4;
    private const int Workers = 3;
    private const int RequestsPerClient = 5;

    public string Name => "router-dealer";

    public string Description => "broker: REQ clients -> ROUTER frontend | Poller loop | DEALER backend -> REP workers";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket frontend = Sample.CreateSocket(context, SocketType.Router);
        using Socket backend = Sample.CreateSocket(context, SocketType.Dealer);
        frontend.Bind(Sample.AnyPort);
        string backendEndpoint = Sample.UniqueInproc("broker-backend");
        backend.Bind(backendEndpoint);
        string frontendEndpoint = frontend.LastEndpoint;
        log.Info($"broker: frontend ROUTER on {frontendEndpoint}, backend DEALER on {backendEndpoint}");

        long forwardedRequests = 0, forwardedReplies = 0;
        var handled = new ConcurrentDictionary<string, int>(StringComparer.Ordinal);
        var replies = new ConcurrentBag<(string Request, string Reply)>();
        var background = new List<SampleThread>();
        try
        {
            background.Add(SampleThread.Start("broker", () => Broker(frontend, backend, ref forwardedRequests, ref forwardedReplies)));
            for (int w = 1; w <= Workers; w++)
            {
                string name = $"worker-{w}";
                background.Add(SampleThread.Start(name, () => Worker(context, name, backendEndpoint, handled)));
            }

            var clients = new List<SampleThread>();
            for (int c = 1; c <= Clients; c++)
            {
                string name = $"client-{c}";
                clients.Add(SampleThread.Start(name, () => Client(context, name, frontendEndpoint, replies)));
            }

            SampleThread.JoinAll(clients, Sample.Timeout);
        }
        finally
        {
            // The broker and the workers wait in Poll/Recv until the context is shut down.
            context.Shutdown();
            SampleThread.JoinAll(background, Sample.Timeout);
        }

        const int Expected = Clients * RequestsPerClient;
        foreach ((string request, string reply) in replies.OrderBy(r => r.Request, StringComparer.Ordinal).Take(3))
        {
            log.Info($"'{request}' -> '{reply}'");
        }

        bool matched = replies.All(r => r.Reply.StartsWith(r.Request + " handled by worker-", StringComparison.Ordinal));
        log.Check(replies.Count == Expected && matched, $"{replies.Count} of {Expected} replies, each to its own request");
        log.Check(forwardedRequests == Expected && forwardedReplies == Expected, $"broker forwarded {forwardedRequests} requests and {forwardedReplies} replies");
        log.Info($"{Clients} clients got {replies.Count} of {Expected} replies, each to its own request: {matched}");
        log.Info($"broker forwarded {forwardedRequests} requests and {forwardedReplies} replies; " +
            $"work per worker: {string.Join(", ", handled.OrderBy(kv => kv.Key, StringComparer.Ordinal).Select(kv => $"{kv.Key}={kv.Value}"))}");
    }

    private static void Broker(Socket frontend, Socket backend, ref long forwardedRequests, ref long forwardedReplies)
    {
        using var poller = new Poller(2);
        using var message = new MultipartMessage();
        int front = poller.Add(frontend, PollEvents.In);
        int back = poller.Add(backend, PollEvents.In);
        try
        {
            while (true)
            {
                poller.Poll(-1);
                // A request arrives as [client routing id][empty][body]; the DEALER passes it on as it is.
                while (poller.IsReadable(front) && frontend.RecvMultipart(message, RecvFlags.DontWait))
                {
                    backend.SendMultipart(message);
                    forwardedRequests++;
                }

                // The REP worker sends the envelope back with its reply; the ROUTER routes on the first frame.
                while (poller.IsReadable(back) && backend.RecvMultipart(message, RecvFlags.DontWait))
                {
                    frontend.SendMultipart(message);
                    forwardedReplies++;
                }
            }
        }
        catch (ContextTerminatedException)
        {
            // The sample is over.
        }
    }

    private static void Worker(Context context, string name, string endpoint, ConcurrentDictionary<string, int> handled)
    {
        try
        {
            using var worker = new Socket(context, SocketType.Rep);
            worker.Connect(endpoint);
            while (true)
            {
                string request = worker.RecvString(); // REP strips the envelope and puts it back on the reply
                worker.Send($"{request} handled by {name}");
                handled.AddOrUpdate(name, 1, (_, count) => count + 1);
            }
        }
        catch (ContextTerminatedException)
        {
            // The sample is over.
        }
    }

    private static void Client(Context context, string name, string endpoint, ConcurrentBag<(string, string)> replies)
    {
        using Socket client = Sample.CreateSocket(context, SocketType.Req);
        client.Connect(endpoint);
        for (int i = 1; i <= RequestsPerClient; i++)
        {
            string request = $"{name} request {i}";
            client.Send(request);
            replies.Add((request, client.RecvString()));
        }
    }
}
