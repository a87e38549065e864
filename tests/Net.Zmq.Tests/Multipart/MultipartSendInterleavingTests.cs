using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Multipart;

/// <summary>
/// Every multipart send is one call on the socket: a parked <c>SendAsync</c>, which the socket pumps when a call
/// ends, can never put its frame between the frames of a multipart message sent synchronously (DEALER sends the
/// frames of a message to one pipe, so a frame slipped in would join that message, and the rest would form another).
/// </summary>
public sealed class MultipartSendInterleavingTests(ITestOutputHelper output)
{
    public static TheoryData<string> Overloads => ["byte[] list", "string params", "Message list", "MultipartMessage"];

    [Theory]
    [MemberData(nameof(Overloads))]
    public async Task A_parked_SendAsync_never_lands_inside_a_multipart_message_sent_synchronously(string overload)
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        using var context = Sockets.NewContext();
        using var dealer = Sockets.New(context, SocketType.Dealer);
        using var router = Sockets.New(context, SocketType.Router);
        // Bound only below: until then the dealer's connection is refused, and with Immediate set it queues nothing, so
        // every send waits for the peer. An ipc path of its own, which (unlike a tcp port let go and bound again) no
        // other test or process can take meanwhile.
        string path = Path.Combine(Path.GetTempPath(), $"net-zmq-tests-{Guid.NewGuid():N}");
        string endpoint = $"ipc://{path}";
        dealer.SetOption(SocketOption.Immediate, true);
        dealer.Connect(endpoint);
        try
        {
            await SendBothWays(dealer, router, endpoint, overload);
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static async Task SendBothWays(Socket dealer, Socket router, string endpoint, string overload)
    {

        ValueTask parked = dealer.SendAsync("X"u8.ToArray());
        Assert.False(parked.IsCompleted);

        // The multipart send blocks inside libzmq on its first frame, holding the socket; the peer's arrival lets that
        // frame go first, and the parked send may go only once the whole message is queued.
        Task<bool> multipart = BlockedThreads.RunUntilBlocked(() => Send(dealer, overload), out _);
        router.Bind(endpoint);
        Assert.True(await multipart.WaitAsync(Timeouts.Wait));
        await parked.AsTask().WaitAsync(Timeouts.Wait);

        using MultipartMessage first = router.RecvMultipart();
        using MultipartMessage second = router.RecvMultipart();
        Assert.Equal(["a", "b", "c"], Payload(first));
        Assert.Equal(["X"], Payload(second));
    }

    private static bool Send(Socket dealer, string overload)
    {
        switch (overload)
        {
            case "byte[] list":
                return dealer.SendMultipart(new List<byte[]> { "a"u8.ToArray(), "b"u8.ToArray(), "c"u8.ToArray() });
            case "string params":
                dealer.SendMultipart("a", "b", "c");
                return true;
            case "Message list":
                var frames = new List<Message> { new("a"), new("b"), new("c") };
                try
                {
                    return dealer.SendMultipart(frames);
                }
                finally
                {
                    frames.ForEach(frame => frame.Dispose());
                }

            default:
                using (var message = new MultipartMessage(new[] { "a"u8.ToArray(), "b"u8.ToArray(), "c"u8.ToArray() }))
                {
                    return dealer.SendMultipart(message);
                }
        }
    }

    /// <summary>The frames after the ROUTER's routing id, as text.</summary>
    private static string[] Payload(MultipartMessage message) => [.. Enumerable.Range(1, message.Count - 1).Select(i => message[i].ToString())];
}
