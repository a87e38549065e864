using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

/// <summary>Whether the loaded libzmq has the draft API, and helpers the draft-socket tests share.</summary>
internal static class DraftSupport
{
    /// <summary>Whether the loaded libzmq was built with the draft API.</summary>
    public static bool Available { get; } = Context.Has("draft");

    /// <summary>Why a test of a draft feature (<see cref="DraftFactAttribute"/>) is skipped where the loaded libzmq lacks the draft API.</summary>
    public static string NoDraftReason =>
        $"The loaded libzmq {Context.Version} has no draft API; point NETZMQ_LIBZMQ_PATH at a draft-enabled build (the bundled one) to run this test.";

    /// <summary>Skips a test of the "no draft API" behaviour when the loaded libzmq has it.</summary>
    public static void RequireNoDraft() =>
        Skip.If(Available,
            $"The loaded libzmq {Context.Version} has the draft API; this test checks what happens without it (run it against the system libzmq 4.3.4).");

    /// <summary>Asserts that a NotSupportedException explains that the draft API is missing and how to tell in advance.</summary>
    public static void AssertSaysDraftIsMissing(NotSupportedException exception)
    {
        Assert.Contains("needs a libzmq built with the draft API", exception.Message, StringComparison.Ordinal);
        Assert.Contains("Context.Has(\"draft\")", exception.Message, StringComparison.Ordinal);
    }

    /// <summary>Receives one frame into a new message, within the socket's ReceiveTimeout.</summary>
    public static Message Receive(Socket socket)
    {
        var message = new Message();
        try
        {
            Assert.True(socket.Recv(message));
            return message;
        }
        catch
        {
            message.Dispose();
            throw;
        }
    }

    /// <summary>Sends one single-part message, with a routing id when it is not 0.</summary>
    public static void Send(Socket socket, string text, uint routingId = 0)
    {
        using var message = new Message(text);
        if (routingId != 0)
        {
            message.RoutingId = routingId;
        }

        Assert.True(socket.Send(message));
    }

    /// <summary>
    /// Beats the slow joiner of RADIO/DISH: sends <paramref name="group"/> probes from the radio until the dish receives
    /// one (its join has reached the radio, or the udp path is up), then a barrier, and drains the dish up to it.
    /// </summary>
    public static void AwaitJoin(Socket radio, Socket dish, string group)
    {
        using var poller = new Poller(1);
        int index = poller.Add(dish, PollEvents.In);
        var clock = Stopwatch.StartNew();
        while (true)
        {
            using (var probe = new Message("probe") { Group = group })
            {
                Assert.True(radio.Send(probe));
            }

            if (poller.Poll(20) > 0 && poller.IsReadable(index))
            {
                break;
            }

            Assert.True(clock.Elapsed < Timeouts.Wait, $"The dish never received a probe of group '{group}'.");
        }

        using (var barrier = new Message("barrier") { Group = group })
        {
            Assert.True(radio.Send(barrier));
        }

        using var received = new Message();
        do
        {
            Assert.True(dish.Recv(received));
        }
        while (received.ToString() != "barrier");
    }
}
