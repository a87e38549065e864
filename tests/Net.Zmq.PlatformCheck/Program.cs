using System.Diagnostics;
using System.Runtime.InteropServices;
using Net.Zmq;
using Net.Zmq.Security;

// Each check runs with real sockets over tcp on 127.0.0.1 and prints one line; the last line counts them.
// Exit code 0 only when every check passed. The one argument is the libzmq version the package bundles.
Version expected = args.Length == 1 ? Version.Parse(args[0]) : throw new ArgumentException("usage: Net.Zmq.PlatformCheck <bundled libzmq version>");
var checks = new (string Name, Func<Task> Run)[]
{
    ($"bundled libzmq {expected} with curve and draft", () => BundledLibrary(expected)),
    ("REQ/REP", RequestReply),
    ("PUB/SUB", PublishSubscribe),
    ("DEALER/ROUTER", DealerRouter),
    ("CURVE with the ZAP authenticator", CurveWithZap),
    ("zero-copy Message", ZeroCopy),
    ("Poller", PollerCheck),
    ("async DEALER/ROUTER", OperatingSystem.IsLinux() || OperatingSystem.IsWindows() ? AsyncDealerRouter : () => throw new PlatformNotSupportedException()),
    ("SERVER/CLIENT (draft)", ServerClient),
    ("RADIO/DISH (draft)", RadioDish),
    ("SCATTER/GATHER (draft)", ScatterGather),
    ("PEER (draft)", PeerToPeer),
};

Console.WriteLine($"Net.Zmq platform check on {RuntimeInformation.RuntimeIdentifier} ({RuntimeInformation.OSDescription}), libzmq {Context.Version}");
int passed = 0, failed = 0;
foreach ((string name, Func<Task> run) in checks)
{
    var clock = Stopwatch.StartNew();
    try
    {
        await run().WaitAsync(TimeSpan.FromSeconds(30));
        passed++;
        Console.WriteLine($"PASS {name} ({clock.ElapsedMilliseconds} ms)");
    }
    catch (Exception ex)
    {
        failed++;
        Console.WriteLine($"FAIL {name}: {ex}");
    }
}

Console.WriteLine($"platform: {passed} passed, {failed} failed");
return failed == 0 ? 0 : 1;

static void Expect(bool condition, string what)
{
    if (!condition)
    {
        throw new InvalidOperationException($"expected {what}");
    }
}

static Task BundledLibrary(Version expected)
{
    Expect(Context.Version == expected, $"libzmq {expected}, loaded {Context.Version}");
    Expect(Context.Has("curve"), "zmq_has(\"curve\")");
    Expect(Context.Has("draft"), "zmq_has(\"draft\")");
    return Task.CompletedTask;
}

static Task RequestReply()
{
    using var pair = new LoopbackPair(SocketType.Rep, SocketType.Req);
    var (server, client) = pair;
    pair.Connect();
    for (int i = 0; i < 100; i++)
    {
        client.Send($"request {i}");
        server.Send(server.RecvString() + " answered");
        Expect(client.RecvString() == $"request {i} answered", $"reply {i}");
    }

    return Task.CompletedTask;
}

static Task PublishSubscribe()
{
    using var pair = new LoopbackPair(SocketType.Pub, SocketType.Sub);
    var (publisher, subscriber) = pair;
    pair.Connect();
    subscriber.Subscribe("news");

    // Publish until the subscription has reached the publisher (the slow-joiner race), then check filtering.
    var deadline = Stopwatch.StartNew();
    while (true)
    {
        publisher.Send("weather: skipped");
        publisher.Send("news: probe");
        if (subscriber.TryRecvString(out string? first))
        {
            Expect(first == "news: probe", $"only news, got '{first}'");
            break;
        }

        Expect(deadline.Elapsed < TimeSpan.FromSeconds(10), "the subscription to arrive");
        Thread.Sleep(10);
    }

    publisher.Send("weather: skipped");
    publisher.Send("news: last");
    string received;
    while ((received = subscriber.RecvString()) == "news: probe")
    {
    }

    Expect(received == "news: last", $"news: last, got '{received}'");
    return Task.CompletedTask;
}

static Task DealerRouter()
{
    using var pair = new LoopbackPair(SocketType.Router, SocketType.Dealer);
    var (router, dealer) = pair;
    dealer.SetOption(SocketOption.RoutingId, "dealer-1");
    pair.Connect();
    dealer.Send("ping");
    using MultipartMessage request = router.RecvMultipart();
    Expect(request.Count == 2 && request[0].ToString() == "dealer-1" && request[1].ToString() == "ping", "[dealer-1, ping]");
    router.Send("dealer-1", SendFlags.SendMore);
    router.Send("pong");
    Expect(dealer.RecvString() == "pong", "pong");
    return Task.CompletedTask;
}

static Task CurveWithZap()
{
    using var pair = new LoopbackPair(SocketType.Pull, SocketType.Push);
    var (server, client) = pair;
    using var authenticator = new ZapAuthenticator(pair.Context);
    CurveKeyPair serverKeys = Curve.GenerateKeyPair();
    CurveKeyPair clientKeys = Curve.GenerateKeyPair();
    authenticator.DefaultPolicy.AllowAddress("127.0.0.0/8").AllowCurveKey(clientKeys.PublicKey);
    server.MakeCurveServer(serverKeys);
    client.MakeCurveClient(clientKeys, serverKeys.PublicKey);
    pair.Connect();
    client.Send("secret");
    using var message = new Message();
    Expect(server.Recv(message) && message.ToString() == "secret", "the encrypted frame");
    Expect(message.GetMetadata("User-Id") == clientKeys.PublicKey, "the client's key as User-Id");
    return Task.CompletedTask;
}

static async Task ZeroCopy()
{
    using var pair = new LoopbackPair(SocketType.Pull, SocketType.Push);
    var (pull, push) = pair;
    pair.Connect();
    var freed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
    const int size = 64 * 1024;
    nint block = Marshal.AllocHGlobal(size);
    byte[] pattern = new byte[size];
    Array.Fill(pattern, (byte)0x5A);
    Marshal.Copy(pattern, 0, block, size);
    using (var outgoing = new Message(block, size, data => { Marshal.FreeHGlobal(data); freed.TrySetResult(); }))
    {
        push.Send(outgoing);
    }

    using var incoming = new Message();
    Expect(pull.Recv(incoming) && incoming.Size == size && !incoming.Data.ContainsAnyExcept((byte)0x5A), "the 64 KB zero-copy frame");
    await freed.Task.WaitAsync(TimeSpan.FromSeconds(10));
}

static Task PollerCheck()
{
    using var pair = new LoopbackPair(SocketType.Pull, SocketType.Push);
    var (b, push) = pair;
    pair.Connect();
    using var a = LoopbackPair.NewSocket(pair.Context, SocketType.Pull);
    a.Bind("tcp://127.0.0.1:*");
    using var poller = new Poller(2);
    int ia = poller.Add(a, PollEvents.In);
    int ib = poller.Add(b, PollEvents.In);
    Expect(poller.Poll(50) == 0, "nothing ready yet");
    push.Send("to b");
    Expect(poller.Poll(10_000) == 1 && poller.IsReadable(ib) && !poller.IsReadable(ia), "only b readable");
    Expect(b.RecvString() == "to b", "the frame");
    return Task.CompletedTask;
}

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
[System.Runtime.Versioning.SupportedOSPlatform("windows")]
static async Task AsyncDealerRouter()
{
    using var context = new Context();
    using var router = new Socket(context, SocketType.Router);
    router.Bind("tcp://127.0.0.1:*");
    var dealers = new Socket[10];
    for (int d = 0; d < dealers.Length; d++)
    {
        dealers[d] = new Socket(context, SocketType.Dealer);
        dealers[d].Connect(router.LastEndpoint);
    }

    // The router echoes; every dealer awaits its replies while the others run.
    using var stop = new CancellationTokenSource();
    Task echo = Task.Run(async () =>
    {
        await foreach (MultipartMessage request in router.RecvAllMultipartAsync(stop.Token))
        {
            await router.SendMultipartAsync(request, stop.Token);
        }
    });
    await Task.WhenAll(dealers.Select(async (dealer, d) =>
    {
        for (int i = 0; i < 50; i++)
        {
            await dealer.SendAsync($"{d}:{i}");
            string reply = await dealer.RecvStringAsync();
            Expect(reply == $"{d}:{i}", $"echo of {d}:{i}, got {reply}");
        }
    }));
    await stop.CancelAsync();
    try
    {
        await echo;
    }
    catch (OperationCanceledException)
    {
    }

    foreach (Socket dealer in dealers)
    {
        dealer.Dispose();
    }
}

static Task ServerClient()
{
    using var pair = new LoopbackPair(SocketType.Server, SocketType.Client);
    var (server, client) = pair;
    pair.Connect();
    client.Send("question");
    using var request = new Message();
    Expect(server.Recv(request) && request.ToString() == "question" && request.RoutingId != 0, "a request with a routing id");
    using var reply = new Message("answer") { RoutingId = request.RoutingId };
    server.Send(reply);
    Expect(client.RecvString() == "answer", "the answer");
    return Task.CompletedTask;
}

static Task RadioDish()
{
    using var pair = new LoopbackPair(SocketType.Radio, SocketType.Dish);
    var (radio, dish) = pair;
    dish.Join("weather");
    pair.Connect();

    // The join travels to the radio after the connection is up: send until the dish hears the group.
    using var received = new Message();
    var deadline = Stopwatch.StartNew();
    while (true)
    {
        using (var other = new Message("ignored") { Group = "sports" })
        {
            radio.Send(other);
        }

        using (var forecast = new Message("sunny") { Group = "weather" })
        {
            radio.Send(forecast);
        }

        if (dish.Recv(received, RecvFlags.DontWait))
        {
            break;
        }

        Expect(deadline.Elapsed < TimeSpan.FromSeconds(10), "the join to reach the radio");
        Thread.Sleep(10);
    }

    Expect(received.Group == "weather" && received.ToString() == "sunny", $"weather/sunny, got {received.Group}/{received}");
    return Task.CompletedTask;
}

static Task ScatterGather()
{
    using var pair = new LoopbackPair(SocketType.Gather, SocketType.Scatter);
    var (gather, scatter) = pair;
    pair.Connect();
    for (int i = 0; i < 10; i++)
    {
        scatter.Send($"part {i}");
    }

    for (int i = 0; i < 10; i++)
    {
        Expect(gather.RecvString() == $"part {i}", $"part {i}");
    }

    return Task.CompletedTask;
}

static Task PeerToPeer()
{
    using var pair = new LoopbackPair(SocketType.Peer, SocketType.Peer);
    var (first, second) = pair;
    uint toFirst = second.ConnectPeer(pair.Bind());
    using (var hello = new Message("hello") { RoutingId = toFirst })
    {
        second.Send(hello);
    }

    using var received = new Message();
    Expect(first.Recv(received) && received.ToString() == "hello", "hello");
    using var back = new Message("hello back") { RoutingId = received.RoutingId };
    first.Send(back);
    Expect(second.RecvString() == "hello back", "hello back");
    return Task.CompletedTask;
}

/// <summary>
/// A check's context of its own and two sockets with timeouts (<see cref="NewSocket"/>); <see cref="Connect"/> binds the
/// first to loopback tcp and connects the second to it, after the check has set what must be set before. Disposing the
/// pair disposes all three.
/// </summary>
sealed class LoopbackPair : IDisposable
{
    public LoopbackPair(SocketType binderType, SocketType connectorType)
    {
        Binder = NewSocket(Context, binderType);
        Connector = NewSocket(Context, connectorType);
    }

    public Context Context { get; } = new();

    /// <summary>A socket whose blocking calls give up after 10 s, so that a failing check fails instead of hanging.</summary>
    public static Socket NewSocket(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.ReceiveTimeout, 10_000);
        socket.SetOption(SocketOption.SendTimeout, 10_000);
        return socket;
    }

    public Socket Binder { get; }

    public Socket Connector { get; }

    /// <summary>Binds <see cref="Binder"/> to an ephemeral loopback port; returns the endpoint to connect to.</summary>
    public string Bind()
    {
        Binder.Bind("tcp://127.0.0.1:*");
        return Binder.LastEndpoint;
    }

    /// <summary>Binds <see cref="Binder"/> and connects <see cref="Connector"/> to it.</summary>
    public void Connect() => Connector.Connect(Bind());

    public void Deconstruct(out Socket binder, out Socket connector) => (binder, connector) = (Binder, Connector);

    public void Dispose()
    {
        Connector.Dispose();
        Binder.Dispose();
        Context.Dispose();
    }
}
