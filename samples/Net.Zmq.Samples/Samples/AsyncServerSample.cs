using System.Diagnostics;
using System.Runtime.Versioning;

namespace Net.Zmq.Samples;

/// <summary>
/// An asynchronous request/reply server: one ROUTER serves many DEALER clients with <c>await foreach</c>, and every
/// client awaits its replies. No thread waits on any socket: waiting operations are parked until libzmq signals the
/// socket, then resume on the thread pool.
/// </summary>
internal sealed class AsyncServerSample : ISample
{
    private const int Clients = 50;
    private const int RequestsPerClient = 20;

    public string Name => "async-server";

    public string Description => "async ROUTER server with await foreach, serving 50 async DEALER clients";

    public void Run(SampleLog log)
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
        {
            log.Info("skipped: the async API waits with epoll (Linux) or WSAPoll (Windows)");
            return;
        }

        RunAsync(log).GetAwaiter().GetResult();
    }

    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private static async Task RunAsync(SampleLog log)
    {
        using var context = new Context();
        using var server = new Socket(context, SocketType.Router);
        server.Bind(Sample.AnyPort);
        string endpoint = server.LastEndpoint;
        log.Info($"server: ROUTER on {endpoint}; {Clients} clients send {RequestsPerClient} requests each");

        using var timeout = new CancellationTokenSource(Sample.Timeout);
        long start = Stopwatch.GetTimestamp();
        Task<int> serving = ServeAsync(server, timeout.Token);
        int[] answered = await Task.WhenAll(Enumerable.Range(1, Clients).Select(id => ClientAsync(context, endpoint, id, timeout.Token)));
        TimeSpan elapsed = Stopwatch.GetElapsedTime(start);

        // Shutting the context down ends the server's await foreach quietly.
        context.Shutdown();
        int served = await serving;

        const int Expected = Clients * RequestsPerClient;
        log.Info($"server answered {served} requests; clients got {answered.Sum()} correct replies in {elapsed.TotalMilliseconds:0} ms " +
                 $"({Expected / elapsed.TotalSeconds:0} round trips/s, {ThreadPool.ThreadCount} thread-pool threads)");
        log.Check(served == Expected, $"the server answered all {Expected} requests");
        log.Check(answered.All(count => count == RequestsPerClient), "every client got a matching reply to each request");
    }

    /// <summary>Echoes each request, upper-cased, to the client that sent it; returns how many it answered.</summary>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private static async Task<int> ServeAsync(Socket server, CancellationToken cancellationToken)
    {
        int served = 0;
        await foreach (MultipartMessage request in server.RecvAllMultipartAsync(cancellationToken))
        {
            // [client routing id][payload]: the reply goes back with the same routing id in front.
            using var reply = new MultipartMessage();
            reply.Add(request[0].Data);
            reply.Add(request[1].ToString().ToUpperInvariant());
            await server.SendMultipartAsync(reply, cancellationToken);
            served++;
        }

        return served;
    }

    /// <summary>Sends its requests one after another and checks each reply; returns how many matched.</summary>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private static async Task<int> ClientAsync(Context context, string endpoint, int id, CancellationToken cancellationToken)
    {
        using var client = new Socket(context, SocketType.Dealer);
        client.Connect(endpoint);
        int matched = 0;
        for (int i = 1; i <= RequestsPerClient; i++)
        {
            string request = $"client {id} request {i}";
            await client.SendAsync(request, cancellationToken);
            string reply = await client.RecvStringAsync(cancellationToken);
            if (reply == request.ToUpperInvariant())
            {
                matched++;
            }
        }

        return matched;
    }
}
