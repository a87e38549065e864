using System.Diagnostics;

namespace Net.Zmq.Tests.Support;

/// <summary>Small building blocks shared by the pattern, receive, multipart and polling tests.</summary>
internal static class SocketKit
{
    /// <summary>How long a blocking receive or send may wait before the test fails instead of hanging.</summary>
    public const int TimeoutMs = 5000;

    /// <summary>An upper bound for work that should finish in well under a second.</summary>
    public static readonly TimeSpan Deadline = TimeSpan.FromMilliseconds(TimeoutMs);

    /// <summary>A context whose sockets do not linger, so disposing it never waits.</summary>
    public static Context NewContext() => new() { DefaultLinger = TimeSpan.Zero };

    /// <summary>A socket whose blocking receives and sends give up (EAGAIN) after <see cref="TimeoutMs"/>.</summary>
    public static Socket NewSocket(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.ReceiveTimeout, TimeoutMs);
        socket.SetOption(SocketOption.SendTimeout, TimeoutMs);
        return socket;
    }

    /// <summary>Binds to an ephemeral port on the loopback interface and returns the resolved endpoint.</summary>
    public static string BindTcp(Socket socket)
    {
        socket.Bind("tcp://127.0.0.1:*");
        return socket.LastEndpoint;
    }

    /// <summary>Binds to a fresh inproc name and returns it.</summary>
    public static string BindInproc(Socket socket)
    {
        string endpoint = NewInprocEndpoint();
        socket.Bind(endpoint);
        return endpoint;
    }

    /// <summary>An inproc endpoint name no other test uses.</summary>
    public static string NewInprocEndpoint() => $"inproc://net-zmq-tests-{Guid.NewGuid():N}";

    /// <summary>Receives one whole multipart message and decodes every frame as UTF-8.</summary>
    public static string[] RecvStrings(Socket socket)
    {
        using MultipartMessage message = socket.RecvMultipart();
        return message.Select(frame => frame.ToString()).ToArray();
    }

    /// <summary>Sends the frames as one multipart message.</summary>
    public static void SendStrings(Socket socket, params string[] frames)
    {
        for (int i = 0; i < frames.Length; i++)
        {
            Assert.True(socket.Send(frames[i], i < frames.Length - 1 ? SendFlags.SendMore : SendFlags.None));
        }
    }

    /// <summary>Asserts that no frame at all is waiting on <paramref name="socket"/> right now.</summary>
    public static void AssertNothingWaiting(Socket socket)
    {
        Span<byte> buffer = stackalloc byte[64];
        Assert.False(socket.TryRecv(buffer, out int size), $"a {size}-byte frame was waiting");
    }

    /// <summary>
    /// Beats the PUB/SUB slow-joiner race: publishes <paramref name="probeTopic"/> until the subscriber (already
    /// subscribed to it) sees one, then publishes a barrier and discards everything up to it, so that no probe is
    /// left in flight afterwards.
    /// </summary>
    public static void AwaitSubscription(Socket publisher, Socket subscriber, string probeTopic)
    {
        using var poller = new Poller(1);
        int index = poller.Add(subscriber, PollEvents.In);
        var clock = Stopwatch.StartNew();
        while (true)
        {
            Assert.True(publisher.Send(probeTopic));
            if (poller.Poll(20) > 0 && poller.IsReadable(index))
            {
                break;
            }

            Assert.True(clock.Elapsed < Deadline, "The subscriber never received a probe: the subscription did not reach the publisher.");
        }

        string barrier = probeTopic + "/barrier";
        Assert.True(publisher.Send(barrier));
        while (subscriber.RecvString() != barrier)
        {
        }
    }

    /// <summary>
    /// Completes the handshake between a bound ROUTER and a connecting ROUTER that was created with
    /// <see cref="SocketOption.ProbeRouter"/>: the binder receives the probe, answers it, and the connector receives
    /// the answer, after which each side can address the other by routing id.
    /// </summary>
    /// <returns>The routing id the binder saw for the connector, and the one the connector saw for the binder.</returns>
    public static (byte[] ConnectorId, byte[] BinderId) CompleteRouterHandshake(Socket binder, Socket connector)
    {
        using MultipartMessage probe = binder.RecvMultipart();
        Assert.Equal(2, probe.Count);
        Assert.Equal(0, probe[1].Size);
        byte[] connectorId = probe[0].ToArray();

        Assert.True(binder.Send(connectorId, SendFlags.SendMore));
        Assert.True(binder.Send("welcome"));

        using MultipartMessage answer = connector.RecvMultipart();
        Assert.Equal(2, answer.Count);
        Assert.Equal("welcome", answer[1].ToString());
        return (connectorId, answer[0].ToArray());
    }
}
