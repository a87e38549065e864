using System.Diagnostics;
using Net.Zmq.Monitoring;

namespace Net.Zmq.Samples;

/// <summary>
/// <see cref="SocketMonitor"/> on both ends of a connection: the server reports Listening, Accepted and HandshakeSucceeded,
/// the client Connected and HandshakeSucceeded, and the server Disconnected when the client goes away.
/// </summary>
internal sealed class MonitorSample : ISample
{
    public string Name => "monitor";

    public string Description => "SocketMonitor events: Listening, Accepted, Connected, HandshakeSucceeded, Disconnected";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket server = Sample.CreateSocket(context, SocketType.Router);
        using var serverEvents = new SocketMonitor(server); // start monitoring before Bind to see Listening

        server.Bind(Sample.AnyPort);
        string endpoint = server.LastEndpoint;
        Expect(log, "server", serverEvents, SocketEvents.Listening);

        var client = Sample.CreateSocket(context, SocketType.Dealer);
        try
        {
            using (var clientEvents = new SocketMonitor(client))
            {
                client.Connect(endpoint);
                Expect(log, "client", clientEvents, SocketEvents.Connected);
                Expect(log, "client", clientEvents, SocketEvents.HandshakeSucceeded);
            }

            Expect(log, "server", serverEvents, SocketEvents.Accepted);
            Expect(log, "server", serverEvents, SocketEvents.HandshakeSucceeded);

            client.Send("hello");
            using MultipartMessage message = server.RecvMultipart();
            log.Check(message.Count == 2 && message[1].ToString() == "hello", "the server got the client's message");
            log.Info($"server got '{message[1]}' over the monitored connection");
        }
        finally
        {
            client.Dispose(); // closing the client drops the connection...
        }

        Expect(log, "server", serverEvents, SocketEvents.Disconnected); // ...and the server sees it go
    }

    /// <summary>Reads events until <paramref name="wanted"/> arrives, printing each one; fails the sample after <see cref="Sample.Timeout"/>.</summary>
    private static void Expect(SampleLog log, string side, SocketMonitor monitor, SocketEvents wanted)
    {
        long start = Stopwatch.GetTimestamp();
        while (true)
        {
            TimeSpan left = Sample.Timeout - Stopwatch.GetElapsedTime(start);
            if (left <= TimeSpan.Zero || !monitor.TryRecv(out SocketMonitorEvent e, left))
            {
                log.Check(false, $"the {side} should report {wanted}");
                return;
            }

            log.Info($"{side,-6} {e.Event,-18} value={e.Value,-4} {e.Endpoint}");
            if (e.Event == wanted)
            {
                return;
            }
        }
    }
}
