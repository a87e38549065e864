using System.Globalization;

namespace Net.Zmq.Samples;

/// <summary>
/// One thread serves three sockets of different kinds with <see cref="Poller.Poll(TimeSpan)"/>: a REP echo service, a PULL
/// log collector and a ROUTER job service. Three client threads use them at the same time.
/// </summary>
internal sealed class PollerSample : ISample
{
    private const int Requests = 5;
    private const int LogLines = 10;
    private const int Jobs = 5;

    public string Name => "poller";

    public string Description => "one thread serving REP, PULL and ROUTER sockets with Poller.Poll";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket echo = Sample.CreateSocket(context, SocketType.Rep);
        using Socket logs = Sample.CreateSocket(context, SocketType.Pull);
        using Socket jobs = Sample.CreateSocket(context, SocketType.Router);
        echo.Bind(Sample.AnyPort);
        string echoEndpoint = echo.LastEndpoint;
        logs.Bind(Sample.AnyPort);
        string logsEndpoint = logs.LastEndpoint;
        jobs.Bind(Sample.AnyPort);
        string jobsEndpoint = jobs.LastEndpoint;
        log.Info($"serving echo (REP) on {echoEndpoint}, logs (PULL) on {logsEndpoint}, jobs (ROUTER) on {jobsEndpoint}");

        int served = 0, logged = 0, jobsDone = 0, polls = 0;
        var server = SampleThread.Start("poller-server", () =>
        {
            using var poller = new Poller();
            int echoIndex = poller.Add(echo, PollEvents.In);
            int logsIndex = poller.Add(logs, PollEvents.In);
            int jobsIndex = poller.Add(jobs, PollEvents.In);
            using var job = new MultipartMessage();
            while (served < Requests || logged < LogLines || jobsDone < Jobs)
            {
                // Wait for any of the three; a timeout means a client stopped talking.
                if (poller.Poll(Sample.Timeout) == 0)
                {
                    throw new TimeoutException("no socket became readable in time");
                }

                polls++;
                if (poller.IsReadable(echoIndex))
                {
                    // REP: exactly one reply per request before the next receive.
                    echo.Send("echo: " + echo.RecvString());
                    served++;
                }

                // PULL: take everything that is waiting, without blocking.
                while (poller.IsReadable(logsIndex) && logs.TryRecvString(out string? _))
                {
                    logged++;
                }

                // ROUTER: [client routing id][job]; the answer goes back with the same routing id first.
                while (poller.IsReadable(jobsIndex) && jobs.RecvMultipart(job, RecvFlags.DontWait))
                {
                    int n = int.Parse(job[1].ToString(), CultureInfo.InvariantCulture);
                    jobs.Send(job[0].Data, SendFlags.SendMore);
                    jobs.Send(string.Create(CultureInfo.InvariantCulture, $"{n} squared is {n * n}"));
                    jobsDone++;
                }
            }
        });

        string[] echoReplies = new string[Requests];
        string[] jobReplies = new string[Jobs];
        var clients = new[]
        {
            SampleThread.Start("echo-client", () =>
            {
                using Socket client = Sample.CreateSocket(context, SocketType.Req);
                client.Connect(echoEndpoint);
                for (int i = 0; i < Requests; i++)
                {
                    client.Send($"ping {i}");
                    echoReplies[i] = client.RecvString();
                }
            }),
            SampleThread.Start("log-client", () =>
            {
                using Socket client = Sample.CreateSocket(context, SocketType.Push);
                client.Connect(logsEndpoint);
                for (int i = 0; i < LogLines; i++)
                {
                    client.Send($"log line {i}");
                }
            }),
            SampleThread.Start("job-client", () =>
            {
                using Socket client = Sample.CreateSocket(context, SocketType.Dealer);
                client.Connect(jobsEndpoint);
                for (int i = 0; i < Jobs; i++)
                {
                    client.Send(i.ToString(CultureInfo.InvariantCulture)); // DEALER: send them all, then collect the answers
                }

                for (int i = 0; i < Jobs; i++)
                {
                    jobReplies[i] = client.RecvString();
                }
            }),
        };

        SampleThread.JoinAll(clients, Sample.Timeout);
        server.Join(Sample.Timeout);

        bool echoesOk = Enumerable.Range(0, Requests).All(i => echoReplies[i] == $"echo: ping {i}");
        bool jobsOk = Enumerable.Range(0, Jobs).All(i => jobReplies[i] == $"{i} squared is {i * i}");
        log.Check(echoesOk, "every echo reply matches its request");
        log.Check(jobsOk, "every job answer matches its job");
        log.Check(served == Requests && logged == LogLines && jobsDone == Jobs, "the server handled every message");
        log.Info($"one thread, {polls} polls: {served} echo requests, {logged} log lines, {jobsDone} jobs");
        log.Info($"echo client got '{echoReplies[0]}' ... '{echoReplies[^1]}'; job client got '{jobReplies[0]}' ... '{jobReplies[^1]}'");
    }
}
