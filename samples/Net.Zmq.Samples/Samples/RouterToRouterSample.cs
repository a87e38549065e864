using System.Collections.Concurrent;
using Net.Zmq.Monitoring;

namespace Net.Zmq.Samples;

/// <summary>
/// A mesh of three peers, each with one ROUTER socket whose RoutingId is the node's name. A node sends to another by
/// putting the peer's name in the first frame. With RouterMandatory a send to a peer that is not connected fails with
/// EHOSTUNREACH instead of being dropped silently, so a node knows whether a peer is reachable.
/// </summary>
internal sealed class RouterToRouterSample : ISample
{
    private static readonly string[] s_names = ["node-a", "node-b", "node-c"];

    public string Name => "router-to-router";

    public string Description => "peer mesh of 3 ROUTER nodes addressing each other by RoutingId, RouterMandatory for reachability";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        int count = s_names.Length;
        var routers = new Socket[count];
        var monitors = new SocketMonitor[count];
        var endpoints = new string[count];
        var nodes = new List<SampleThread>();
        var received = new ConcurrentBag<(string Node, string From, string Kind)>();
        try
        {
            for (int i = 0; i < count; i++)
            {
                routers[i] = Sample.CreateSocket(context, SocketType.Router);
                routers[i].SetOption(SocketOption.RoutingId, s_names[i]);  // the name the other nodes address it by
                routers[i].SetOption(SocketOption.RouterMandatory, true);  // unknown peer: EHOSTUNREACH, not a silent drop
                monitors[i] = new SocketMonitor(routers[i], SocketEvents.HandshakeSucceeded);
                routers[i].Bind(Sample.AnyPort);
                endpoints[i] = routers[i].LastEndpoint; // read it now: after a Connect, LastEndpoint is the connected one
            }

            log.Info($"nodes listening: {string.Join(", ", s_names.Zip(endpoints, (name, endpoint) => $"{name} on {endpoint}"))}");

            log.Check(!TrySend(routers[0], "node-b", "hello"), "node-b cannot be reachable before anyone connected");
            log.Info("node-a -> node-b before connecting: EHOSTUNREACH, not reachable yet");

            // One connection per pair of nodes: each node connects to the ones listed before it.
            for (int i = 0; i < count; i++)
            {
                for (int j = 0; j < i; j++)
                {
                    routers[i].Connect(endpoints[j]);
                }
            }

            // Every node takes part in count - 1 connections; wait until each has finished its handshake (the peers'
            // routing ids are exchanged in the handshake).
            for (int i = 0; i < count; i++)
            {
                for (int peer = 0; peer < count - 1; peer++)
                {
                    monitors[i].WaitFor(SocketEvents.HandshakeSucceeded, Sample.Timeout);
                }

                monitors[i].Dispose(); // stopping a monitor is a call on its socket: do it before a node thread takes the socket
            }

            log.Info("mesh is up: every node completed a handshake with each of its 2 peers");

            for (int i = 0; i < count; i++)
            {
                Socket router = routers[i];
                string me = s_names[i];
                nodes.Add(SampleThread.Start(me, () => Node(router, me, received)));
            }

            SampleThread.JoinAll(nodes, Sample.Timeout);

            log.Check(!TrySend(routers[0], "node-d", "hello"), "node-d does not exist");
            log.Info("node-a -> node-d (no such node): EHOSTUNREACH");
        }
        finally
        {
            foreach (SocketMonitor? monitor in monitors)
            {
                monitor?.Dispose();
            }

            foreach (Socket? router in routers)
            {
                router?.Dispose();
            }
        }

        // Every node must have been greeted by both others, and have had its own greetings acknowledged by both.
        foreach (string me in s_names)
        {
            string[] others = [.. s_names.Where(name => name != me)];
            string[] greetedBy = [.. received.Where(r => r.Node == me && r.Kind == "hello").Select(r => r.From).Order(StringComparer.Ordinal)];
            string[] ackedBy = [.. received.Where(r => r.Node == me && r.Kind == "ack").Select(r => r.From).Order(StringComparer.Ordinal)];
            log.Check(greetedBy.SequenceEqual(others) && ackedBy.SequenceEqual(others), $"{me} should be greeted and acked by {string.Join(" and ", others)} once each");
            log.Info($"{me} got hello from {string.Join(", ", greetedBy)}; ack from {string.Join(", ", ackedBy)}");
        }
    }

    /// <summary>Greets every other node, answers each greeting with an ack, and returns once it has both greetings and both acks.</summary>
    private static void Node(Socket router, string me, ConcurrentBag<(string Node, string From, string Kind)> received)
    {
        var peers = s_names.Where(name => name != me).ToList();
        foreach (string peer in peers)
        {
            Send(router, peer, "hello");
        }

        var greetedBy = new HashSet<string>(StringComparer.Ordinal);
        var ackedBy = new HashSet<string>(StringComparer.Ordinal);
        using var message = new MultipartMessage();
        while (greetedBy.Count < peers.Count || ackedBy.Count < peers.Count)
        {
            router.RecvMultipart(message); // [sender's routing id][kind]: the ROUTER puts the sender's id first
            string sender = message[0].ToString();
            string kind = message[1].ToString();
            received.Add((me, sender, kind));
            if (kind == "hello")
            {
                greetedBy.Add(sender);
                Send(router, sender, "ack");
            }
            else
            {
                ackedBy.Add(sender);
            }
        }
    }

    private static void Send(Socket router, string peer, string text)
    {
        if (TrySend(router, peer, text))
        {
            return;
        }

        // The handshake is done, so the connection to the peer is attached, but a socket applies such changes only when
        // it processes its commands, which a send may defer for up to a millisecond. Reading Events processes them now.
        _ = router.Events;
        if (!TrySend(router, peer, text))
        {
            throw new InvalidOperationException($"{peer} is not reachable");
        }
    }

    /// <summary>Sends [peer][text]; false when the ROUTER has no connected peer with that routing id (EHOSTUNREACH).</summary>
    private static bool TrySend(Socket router, string peer, string text)
    {
        try
        {
            // With RouterMandatory the first frame fails when the peer is unknown, and then nothing is queued.
            router.Send(peer, SendFlags.SendMore);
        }
        catch (ZmqException ex) when (ex.ErrorNumber == ZmqError.EHOSTUNREACH)
        {
            return false;
        }

        router.Send(text);
        return true;
    }
}
