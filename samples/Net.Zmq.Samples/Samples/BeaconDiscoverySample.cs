using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Net.Zmq.Actors;
using Net.Zmq.Discovery;

namespace Net.Zmq.Samples;

/// <summary>
/// Two nodes find each other with a UDP <see cref="Beacon"/> and talk over ZeroMQ. Each node is an <see cref="Actor"/>:
/// it binds a PULL socket on an ephemeral tcp port, publishes that port in its beacon, and when it hears the other
/// node's beacon it connects a PUSH socket to the advertised endpoint and says hello. The main thread only sends
/// commands on the actors' pipes and reads what they report.
/// </summary>
internal sealed class BeaconDiscoverySample : ISample
{
    private const string Prefix = "net.zmq-sample port=";

    // On a LAN every node uses one agreed UDP port and the default broadcast address (255.255.255.255). The sample
    // broadcasts on loopback only, on a port it finds free, so it never reaches the network or collides with anything.
    private static readonly IPAddress s_broadcast = IPAddress.Parse("127.255.255.255");

    public string Name => "beacon-discovery";

    public string Description => "two actor nodes discovering each other by UDP beacon, then talking over PUSH/PULL";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        int beaconPort = FreeUdpPort();
        log.Info($"beacons on UDP port {beaconPort}, broadcast to {s_broadcast}");

        using var alpha = new Actor(context, pipe => RunNode(context, pipe, "alpha", beaconPort), "node alpha");
        using var beta = new Actor(context, pipe => RunNode(context, pipe, "beta", beaconPort), "node beta");
        alpha.Pipe.SetOption(SocketOption.ReceiveTimeout, Sample.Timeout);
        beta.Pipe.SetOption(SocketOption.ReceiveTimeout, Sample.Timeout);

        // Each node reports when it has met the other and heard its hello.
        string alphaReport = alpha.Pipe.RecvString();
        string betaReport = beta.Pipe.RecvString();
        log.Info($"alpha: {alphaReport}");
        log.Info($"beta:  {betaReport}");
        log.Check(alphaReport.EndsWith("heard 'hello from beta'", StringComparison.Ordinal), "alpha should have heard beta");
        log.Check(betaReport.EndsWith("heard 'hello from alpha'", StringComparison.Ordinal), "beta should have heard alpha");

        // A command and its reply over the pipe.
        alpha.Pipe.Send("peers");
        string peers = alpha.Pipe.RecvString();
        log.Info($"main -> alpha: 'peers'; alpha -> main: '{peers}'");
        log.Check(peers == "1", "alpha should know one peer");

        // Dispose sends $TERM to each actor and waits for its handler to return.
        alpha.Dispose();
        beta.Dispose();
        log.Check(alpha.Completion.IsCompletedSuccessfully && beta.Completion.IsCompletedSuccessfully, "both nodes should stop cleanly");
        log.Info("both nodes stopped on $TERM");
    }

    /// <summary>One node: the actor's handler.</summary>
    private static void RunNode(Context context, Socket pipe, string name, int beaconPort)
    {
        using Socket inbox = new(context, SocketType.Pull);
        inbox.Bind(Sample.AnyPort);
        int tcpPort = new Uri(inbox.LastEndpoint).Port;

        using var beacon = new Beacon(beaconPort, s_broadcast) { IgnoreOwnTransmissions = true };
        beacon.Subscribe(Prefix);
        beacon.Publish($"{Prefix}{tcpPort}", TimeSpan.FromMilliseconds(100));

        var peers = new Dictionary<string, Socket>(StringComparer.Ordinal);
        string? met = null;
        string? heardHello = null;
        bool reported = false;
        using var poller = new Poller();
        int pipeIndex = poller.Add(pipe, PollEvents.In);
        int inboxIndex = poller.Add(inbox, PollEvents.In);
        int beaconIndex = poller.Add(beacon.Handle, PollEvents.In); // the beacon's UDP socket, beside the ZeroMQ ones
        try
        {
            while (true)
            {
                poller.Poll(-1);
                while (poller.IsReadable(beaconIndex) && beacon.TryRecv(TimeSpan.Zero, out BeaconMessage? heard))
                {
                    string endpoint = $"tcp://{heard.PeerAddress}:{heard.PayloadText[Prefix.Length..]}";
                    if (!peers.ContainsKey(endpoint))
                    {
                        var outbox = new Socket(context, SocketType.Push);
                        peers.Add(endpoint, outbox);
                        outbox.Connect(endpoint);
                        outbox.Send($"hello from {name}");
                        met = endpoint;
                    }
                }

                if (poller.IsReadable(inboxIndex) && inbox.TryRecvString(out string? hello))
                {
                    heardHello = hello;
                }

                // The peer's hello may come before its beacon: report once both have.
                if (!reported && met is not null && heardHello is not null)
                {
                    pipe.Send($"{name} found a peer at {met} and heard '{heardHello}'");
                    reported = true;
                }

                if (poller.IsReadable(pipeIndex) && pipe.TryRecvString(out string? command))
                {
                    if (command == Actor.StopCommand)
                    {
                        return;
                    }

                    pipe.Send(command == "peers" ? peers.Count.ToString(CultureInfo.InvariantCulture) : $"unknown command '{command}'");
                }
            }
        }
        finally
        {
            poller.Dispose();
            foreach (Socket outbox in peers.Values)
            {
                outbox.Dispose();
            }
        }
    }

    private static int FreeUdpPort()
    {
        using var probe = new UdpClient(0, AddressFamily.InterNetwork);
        return ((IPEndPoint)probe.Client.LocalEndPoint!).Port;
    }
}
