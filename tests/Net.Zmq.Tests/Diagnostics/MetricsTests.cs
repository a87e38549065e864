using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Diagnostics;

[Collection(MetricsCollection.Name)]
public sealed class MetricsTests
{
    [Fact]
    public void The_meter_is_Net_Zmq_at_the_assembly_version_with_the_documented_instruments()
    {
        using var context = Sockets.NewContext(); // makes sure the meter exists before the listener looks
        using var recorder = new MeterRecorder();

        Dictionary<string, string?> units;
        lock (recorder.Published)
        {
            units = recorder.Published.ToDictionary(instrument => instrument.Name, instrument => instrument.Unit);
            Assert.All(recorder.Published, instrument =>
                Assert.Equal(typeof(Context).Assembly.GetName().Version?.ToString(), instrument.Meter.Version));
        }

        Assert.Equal(
            new Dictionary<string, string?>
            {
                ["net.zmq.context.count"] = "{context}",
                ["net.zmq.socket.count"] = "{socket}",
                ["net.zmq.zap.requests"] = "{request}",
                ["net.zmq.connections.accepted"] = "{connection}",
                ["net.zmq.connections.connected"] = "{connection}",
                ["net.zmq.connections.closed"] = "{connection}",
                ["net.zmq.handshakes.succeeded"] = "{handshake}",
                ["net.zmq.handshakes.failed"] = "{handshake}",
            },
            units);
    }

    [Fact]
    public void Open_contexts_and_sockets_are_counted_by_type_until_disposed()
    {
        // Sockets that earlier tests left to the finalizer must not close inside the measured window.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        using var recorder = new MeterRecorder();
        long contextsBefore = recorder.Observe("net.zmq.context.count");
        long pairsBefore = recorder.Observe("net.zmq.socket.count", "socket.type=pair");

        var context = Sockets.NewContext();
        Socket[] sockets = [new Socket(context, SocketType.Pair), new Socket(context, SocketType.Pair), new Socket(context, SocketType.Pair)];
        long contextsOpen = recorder.Observe("net.zmq.context.count");
        long pairsOpen = recorder.Observe("net.zmq.socket.count", "socket.type=pair");
        foreach (Socket socket in sockets)
        {
            socket.Dispose();
        }

        long pairsAfter = recorder.Observe("net.zmq.socket.count", "socket.type=pair");
        context.Dispose();
        long contextsAfter = recorder.Observe("net.zmq.context.count");

        Assert.Equal(contextsBefore + 1, contextsOpen);
        Assert.Equal(pairsBefore + 3, pairsOpen);
        Assert.Equal(pairsBefore, pairsAfter);
        Assert.Equal(contextsBefore, contextsAfter);
    }

    [Fact]
    public void ZAP_answers_are_counted_by_mechanism_and_result()
    {
        using var recorder = new MeterRecorder();
        using Context context = Sockets.NewContext();
        using var auth = new ZapAuthenticator(context);
        auth.DefaultPolicy.AddPlainUser("admin", "secret");
        using var answered = new SemaphoreSlim(0);
        auth.Decided += (_, _) => answered.Release();

        Assert.Equal(SocketEvents.HandshakeSucceeded, PlainHandshake(context, "secret"));
        Assert.Equal(SocketEvents.HandshakeFailedAuth, PlainHandshake(context, "wrong"));
        Assert.True(answered.Wait(Timeouts.Wait) && answered.Wait(Timeouts.Wait)); // the count is made before Decided is raised

        Assert.Equal(1, recorder.Sum("net.zmq.zap.requests", "mechanism=plain", "result=allowed"));
        Assert.Equal(1, recorder.Sum("net.zmq.zap.requests", "mechanism=plain", "result=denied"));
        Assert.Equal(1, recorder.Sum("net.zmq.handshakes.succeeded", "socket.type=pull"));
        Assert.Equal(1, recorder.Sum("net.zmq.handshakes.failed", "socket.type=pull", "reason=auth"));
        Assert.Equal(2, recorder.Sum("net.zmq.connections.accepted", "socket.type=pull"));
    }

    [Fact]
    public void A_monitor_counts_connections_made_and_closed()
    {
        using var recorder = new MeterRecorder();
        using Context context = Sockets.NewContext();
        using Socket server = Sockets.New(context, SocketType.Pull);
        using var serverEvents = new SocketMonitor(server, SocketEvents.Accepted | SocketEvents.HandshakeSucceeded | SocketEvents.Disconnected);
        string endpoint = Endpoints.BindTcp(server);
        Socket client = Sockets.New(context, SocketType.Push);
        using (var clientEvents = new SocketMonitor(client, SocketEvents.Connected))
        {
            client.Connect(endpoint);
            clientEvents.WaitFor(SocketEvents.Connected, Timeouts.Wait);
        }

        serverEvents.WaitFor(SocketEvents.HandshakeSucceeded, Timeouts.Wait);
        client.Dispose();
        serverEvents.WaitFor(SocketEvents.Disconnected, Timeouts.Wait);

        Assert.Equal(1, recorder.Sum("net.zmq.connections.connected", "socket.type=push"));
        Assert.Equal(1, recorder.Sum("net.zmq.connections.accepted", "socket.type=pull"));
        Assert.Equal(1, recorder.Sum("net.zmq.connections.closed", "socket.type=pull"));
    }

    private static SocketEvents PlainHandshake(Context context, string password)
    {
        using Socket server = Sockets.New(context, SocketType.Pull);
        server.MakePlainServer();
        using var events = new SocketMonitor(server, SocketEvents.Accepted | SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth);
        string endpoint = Endpoints.BindTcp(server);
        using Socket client = Sockets.New(context, SocketType.Push);
        client.MakePlainClient("admin", password);
        client.Connect(endpoint);
        events.WaitFor(SocketEvents.Accepted, Timeouts.Wait);
        return events.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Timeouts.Wait).Event;
    }
}
