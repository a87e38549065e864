using System.Globalization;
using System.Text;

namespace Net.Zmq.Samples;

/// <summary>
/// The Paranoid Pirate pattern (ZeroMQ Guide, chapter 4) on <see cref="EventLoop"/>s: a queue with a ROUTER frontend for
/// clients and a ROUTER backend for workers, which it heartbeats and forgets when they fall silent; workers that heartbeat
/// the queue and, when it falls silent, reconnect with a growing back-off; and a Lazy Pirate client that resends a
/// request on a fresh socket when no reply comes in time. During the run one worker is killed and the queue is restarted;
/// every request must still get its answer. Each party runs on its own loop: sockets, timers and all, on one thread each.
/// </summary>
internal sealed class ParanoidPirateSample : ISample
{
    private const int Requests = 30;
    private const int KillWorkerAfter = 10;
    private const int RestartQueueAfter = 20;
    private const int Liveness = 3; // heartbeats missed before the peer counts as dead

    private static readonly TimeSpan HeartbeatInterval = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan RequestTimeout = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan InitialBackOff = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan MaxBackOff = TimeSpan.FromMilliseconds(400);
    private const int MaxRetries = 8;

    private static readonly byte[] Ready = "READY"u8.ToArray();
    private static readonly byte[] Heartbeat = "HEARTBEAT"u8.ToArray();

    public string Name => "paranoid-pirate";

    public string Description => "reliable queue on EventLoops: heartbeats, a worker killed, the queue restarted, a Lazy Pirate client";

    public void Run(SampleLog log)
    {
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        string frontendEndpoint, backendEndpoint;
        var queue = new PirateQueue(context, Sample.AnyPort, Sample.AnyPort, log);
        (frontendEndpoint, backendEndpoint) = (queue.FrontendEndpoint, queue.BackendEndpoint);
        log.Info($"queue: clients on {frontendEndpoint}, workers on {backendEndpoint}");

        var workers = new[] { new PirateWorker(context, "worker-1", backendEndpoint, log), new PirateWorker(context, "worker-2", backendEndpoint, log) };
        using var killPoint = new ManualResetEventSlim();
        using var restartPoint = new ManualResetEventSlim();
        var client = new LazyPirateClient(context, frontendEndpoint, log, answered =>
        {
            if (answered == KillWorkerAfter)
            {
                killPoint.Set();
            }
            else if (answered == RestartQueueAfter)
            {
                restartPoint.Set();
            }
        });

        Task clientRun;
        int answeredAtKill;
        try
        {
            clientRun = client.Start();

            if (!killPoint.Wait(Sample.Timeout * 2))
            {
                throw new TimeoutException($"the client did not get {KillWorkerAfter} answers in time");
            }

            workers[0].Kill(); // no goodbye: the queue finds out when its heartbeats stop
            answeredAtKill = client.Answered;
            log.Info($"killed worker-1 after {answeredAtKill} answers");

            if (!restartPoint.Wait(Sample.Timeout * 2))
            {
                throw new TimeoutException($"the client did not get {RestartQueueAfter} answers in time");
            }

            queue.Dispose();
            log.Info("queue stopped; starting it again on the same endpoints");
            queue = new PirateQueue(context, frontendEndpoint, backendEndpoint, log);

            if (!clientRun.Wait(Sample.Timeout * 2))
            {
                throw new TimeoutException("the client did not finish in time");
            }
        }
        finally
        {
            client.Dispose();
            foreach (PirateWorker worker in workers)
            {
                worker.Dispose();
            }

            queue.Dispose();
        }

        clientRun.GetAwaiter().GetResult(); // rethrows what stopped the client's loop, if anything did
        string[] answers = client.Answers;
        log.Check(answers.Select((answer, i) => answer?.EndsWith($"answer to request {i}", StringComparison.Ordinal) == true).All(ok => ok),
            "every request got its own answer");
        log.Check(answers.Skip(answeredAtKill + 1).All(answer => answer?.StartsWith("worker-2", StringComparison.Ordinal) == true),
            "after worker-1 was killed only worker-2 answered");
        log.Info($"{Requests} requests answered; the client resent {client.Retries} time(s); " +
            $"worker-1 answered {workers[0].Handled}, worker-2 {workers[1].Handled} and reconnected {workers[1].Reconnects} time(s)");
    }

    private static byte[][]? TryReceive(Socket socket)
    {
        if (!socket.TryRecvMultipart(out MultipartMessage? message))
        {
            return null;
        }

        using (message)
        {
            return [.. message!.Select(frame => frame.ToArray())];
        }
    }

    private static bool Is(byte[] frame, byte[] command) => frame.AsSpan().SequenceEqual(command);

    /// <summary>The queue: least-recently-used routing to the workers it hears from, heartbeats both ways.</summary>
    private sealed class PirateQueue : IDisposable
    {
        private readonly EventLoop _loop = new();
        private readonly Socket _frontend;
        private readonly Socket _backend;
        private readonly SampleLog _log;
        private readonly Task _run;

        // Ready workers, the one that waited longest first, each with the time after which it counts as dead.
        private readonly List<(byte[] Id, DateTime Expiry)> _workers = [];

        public PirateQueue(Context context, string frontendEndpoint, string backendEndpoint, SampleLog log)
        {
            _log = log;
            _frontend = new Socket(context, SocketType.Router);
            _backend = new Socket(context, SocketType.Router);
            BindRetrying(_frontend, frontendEndpoint);
            BindRetrying(_backend, backendEndpoint);
            FrontendEndpoint = _frontend.LastEndpoint;
            BackendEndpoint = _backend.LastEndpoint;

            _loop.Add(_backend, OnBackend);
            _loop.Add(_frontend, OnFrontend);
            WatchFrontend();
            _loop.AddTimer(HeartbeatInterval, _ => HeartbeatWorkers());
            _run = _loop.RunAsync();
        }

        public string FrontendEndpoint { get; }

        public string BackendEndpoint { get; }

        public void Dispose()
        {
            if (_loop.IsDisposed)
            {
                return;
            }

            _loop.Dispose(); // stops the loop and waits for it
            _run.GetAwaiter().GetResult();
            _frontend.Dispose();
            _backend.Dispose();
        }

        // libzmq closes a socket's listener in the background: a restarted queue may find its port still taken for a moment.
        private static void BindRetrying(Socket socket, string endpoint)
        {
            DateTime giveUp = DateTime.UtcNow + Sample.Timeout;
            while (true)
            {
                try
                {
                    socket.Bind(endpoint);
                    return;
                }
                catch (ZmqException ex) when (ex.ErrorNumber == ZmqError.EADDRINUSE && DateTime.UtcNow < giveUp)
                {
                    Thread.Sleep(10);
                }
            }
        }

        // Requests are taken from clients only while a worker is ready for one: the others wait in the ROUTER.
        private void WatchFrontend() => _loop.Update(_frontend, _workers.Count > 0 ? OnFrontend : null, sendReady: null);

        private void OnBackend(Socket backend)
        {
            while (TryReceive(backend) is { } frames)
            {
                byte[] worker = frames[0];
                _workers.RemoveAll(w => w.Id.AsSpan().SequenceEqual(worker)); // any message means "alive and ready"
                _workers.Add((worker, DateTime.UtcNow + (HeartbeatInterval * Liveness)));
                if (frames.Length == 2)
                {
                    if (!Is(frames[1], Ready) && !Is(frames[1], Heartbeat))
                    {
                        _log.Info($"queue: unexpected control frame {Encoding.UTF8.GetString(frames[1])}");
                    }
                }
                else
                {
                    _frontend.SendMultipart(frames[1..]); // [client][empty][reply]
                }
            }

            WatchFrontend();
        }

        private void OnFrontend(Socket frontend)
        {
            while (_workers.Count > 0 && TryReceive(frontend) is { } frames)
            {
                byte[] worker = _workers[0].Id;
                _workers.RemoveAt(0);
                _backend.SendMultipart([worker, .. frames]); // [worker][client][empty][request]
            }

            WatchFrontend();
        }

        private void HeartbeatWorkers()
        {
            DateTime now = DateTime.UtcNow;
            int dead = _workers.RemoveAll(w => w.Expiry < now);
            if (dead > 0)
            {
                _log.Info($"queue: {dead} worker(s) fell silent and were dropped");
                WatchFrontend();
            }

            foreach ((byte[] id, _) in _workers)
            {
                _backend.SendMultipart([id, Heartbeat]);
            }
        }
    }

    /// <summary>A worker: answers requests, heartbeats the queue, and reconnects with back-off when the queue falls silent.</summary>
    private sealed class PirateWorker : IDisposable
    {
        private readonly EventLoop _loop = new();
        private readonly Context _context;
        private readonly string _name;
        private readonly string _endpoint;
        private readonly SampleLog _log;
        private readonly EventLoopTimer _heartbeat;
        private readonly EventLoopTimer _queueSilent;
        private readonly EventLoopTimer _reconnect;
        private readonly Task _run;
        private Socket? _socket;
        private TimeSpan _backOff = InitialBackOff;
        private int _handled;

        public PirateWorker(Context context, string name, string endpoint, SampleLog log)
        {
            (_context, _name, _endpoint, _log) = (context, name, endpoint, log);
            _heartbeat = _loop.AddTimer(HeartbeatInterval, _ => _socket?.Send(Heartbeat));
            _queueSilent = _loop.AddOneShotTimer(HeartbeatInterval * Liveness, _ => OnQueueSilent());
            _reconnect = _loop.AddOneShotTimer(InitialBackOff, _ => Connect());
            _reconnect.IsEnabled = false;
            _loop.Post(Connect);
            _run = _loop.RunAsync();
        }

        public int Handled => Volatile.Read(ref _handled);

        public int Reconnects { get; private set; }

        /// <summary>Simulates a crash: the loop and the socket go away without a word to the queue.</summary>
        public void Kill() => Dispose();

        public void Dispose()
        {
            if (_loop.IsDisposed)
            {
                return;
            }

            _loop.Dispose();
            _run.GetAwaiter().GetResult();
            _socket?.Dispose();
        }

        private void Connect()
        {
            _socket = new Socket(_context, SocketType.Dealer);
            _socket.Connect(_endpoint);
            _socket.Send(Ready);
            _loop.Add(_socket, OnMessage);
            _queueSilent.Restart();
            _heartbeat.IsEnabled = true;
        }

        private void OnMessage(Socket socket)
        {
            while (TryReceive(socket) is { } frames)
            {
                _queueSilent.Restart(); // the queue is alive
                if (frames.Length == 3)
                {
                    // [client][empty][request]: answer with the same envelope.
                    string request = Encoding.UTF8.GetString(frames[2]);
                    socket.SendMultipart([frames[0], frames[1], Encoding.UTF8.GetBytes($"{_name}: answer to {request}")]);
                    Interlocked.Increment(ref _handled);
                    _backOff = InitialBackOff;
                }
                else if (frames.Length != 1 || !Is(frames[0], Heartbeat))
                {
                    _log.Info($"{_name}: unexpected message of {frames.Length} frame(s)");
                }
            }
        }

        private void OnQueueSilent()
        {
            _log.Info($"{_name}: the queue fell silent; reconnecting in {_backOff.TotalMilliseconds:0} ms");
            _heartbeat.IsEnabled = false;
            _loop.Remove(_socket!);
            _socket!.Dispose();
            _socket = null;
            _reconnect.Interval = _backOff;
            _reconnect.Restart();
            _backOff = _backOff * 2 < MaxBackOff ? _backOff * 2 : MaxBackOff;
            Reconnects++;
        }
    }

    /// <summary>
    /// The Lazy Pirate client: one request at a time on a REQ socket; when no reply comes within the timeout, it closes
    /// the socket (a REQ cannot send twice in a row), opens a new one and sends the same request again.
    /// </summary>
    private sealed class LazyPirateClient : IDisposable
    {
        private readonly EventLoop _loop = new();
        private readonly Context _context;
        private readonly string _endpoint;
        private readonly SampleLog _log;
        private readonly Action<int> _progress;
        private readonly EventLoopTimer _timeout;
        private readonly string[] _answers = new string[Requests];
        private Socket? _socket;
        private int _sequence;
        private int _retriesLeft = MaxRetries;

        public LazyPirateClient(Context context, string endpoint, SampleLog log, Action<int> progress)
        {
            (_context, _endpoint, _log, _progress) = (context, endpoint, log, progress);
            _timeout = _loop.AddOneShotTimer(RequestTimeout, _ => OnTimeout());
            _timeout.IsEnabled = false;
        }

        public int Answered => Volatile.Read(ref _sequence);

        public int Retries { get; private set; }

        /// <summary>The answers, by request number; read once the client's run is over.</summary>
        public string[] Answers => _answers;

        public Task Start()
        {
            _loop.Post(() =>
            {
                Connect();
                SendRequest();
            });
            return _loop.RunAsync();
        }

        public void Dispose()
        {
            _loop.Dispose();
            _socket?.Dispose();
        }

        private void Connect()
        {
            _socket = new Socket(_context, SocketType.Req);
            _socket.Connect(_endpoint);
            _loop.Add(_socket, OnReply);
        }

        private void SendRequest()
        {
            _socket!.Send(string.Create(CultureInfo.InvariantCulture, $"request {_sequence}"));
            _timeout.Restart();
        }

        private void OnReply(Socket socket)
        {
            string reply = socket.RecvString();
            if (!reply.EndsWith(string.Create(CultureInfo.InvariantCulture, $"answer to request {_sequence}"), StringComparison.Ordinal))
            {
                _log.Info($"client: unexpected reply '{reply}'");
                return;
            }

            _timeout.IsEnabled = false;
            _answers[_sequence] = reply;
            _retriesLeft = MaxRetries;
            int answered = Interlocked.Increment(ref _sequence);
            _progress(answered);
            if (answered == Requests)
            {
                _loop.Stop();
                return;
            }

            SendRequest();
        }

        private void OnTimeout()
        {
            if (--_retriesLeft == 0)
            {
                throw new TimeoutException($"request {_sequence} got no answer after {MaxRetries} tries");
            }

            Retries++;
            _log.Info($"client: no answer to request {_sequence} in {RequestTimeout.TotalMilliseconds:0} ms; resending on a new socket");
            _loop.Remove(_socket!);
            _socket!.Dispose();
            Connect();
            SendRequest();
        }
    }
}
