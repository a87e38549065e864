namespace Net.Zmq.Tests.Support;

/// <summary>Sends and receives whole messages as text, waits for a frame to arrive, and checks that nothing is left waiting.</summary>
internal static class Frames
{
    /// <summary>Sends <paramref name="frames"/> as one multipart message; asserts every frame was queued.</summary>
    public static void SendStrings(Socket socket, params string[] frames)
    {
        for (int i = 0; i < frames.Length; i++)
        {
            Assert.True(socket.Send(frames[i], i < frames.Length - 1 ? SendFlags.SendMore : SendFlags.None));
        }
    }

    /// <summary>Receives one whole multipart message and decodes every frame as UTF-8.</summary>
    public static string[] RecvStrings(Socket socket)
    {
        using MultipartMessage message = socket.RecvMultipart();
        return message.Select(frame => frame.ToString()).ToArray();
    }

    /// <summary>Waits, for <see cref="Timeouts.Wait"/> at the most, until a frame is waiting on <paramref name="socket"/>; receives nothing.</summary>
    public static void AwaitWaiting(Socket socket)
    {
        using var poller = new Poller(1);
        poller.Add(socket, PollEvents.In);
        Assert.True(poller.Poll(Timeouts.WaitMs) == 1, "no frame arrived in time");
    }

    /// <summary>Asserts that no frame at all is waiting on <paramref name="socket"/> right now.</summary>
    public static void AssertNothingWaiting(Socket socket)
    {
        Span<byte> buffer = stackalloc byte[64];
        Assert.False(socket.TryRecv(buffer, out int size), $"a {size}-byte frame was waiting");
    }
}
