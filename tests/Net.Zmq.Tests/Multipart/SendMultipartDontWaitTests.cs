using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

/// <summary>SendMultipart under DontWait on a full socket: false, nothing of the message queued, and nothing lost.</summary>
public class SendMultipartDontWaitTests : ContextPerTest
{
    /// <summary>
    /// Connects <paramref name="dealer"/> (high water mark 2) to an inproc name nobody has bound yet and fills its only
    /// pipe; returns the name and how many fillers it queued.
    /// </summary>
    private static (string Endpoint, int Queued) ConnectToNobodyAndFill(Socket dealer)
    {
        dealer.SetOption(SocketOption.SendHighWatermark, 2);
        string endpoint = Endpoints.NewInproc();
        dealer.Connect(endpoint);
        int queued = 0;
        while (dealer.Send($"filler {queued}", SendFlags.DontWait))
        {
            queued++;
            Assert.True(queued <= 1000, "the high water mark never applied");
        }

        return (endpoint, queued);
    }

    /// <summary>Binds <paramref name="receiver"/> to the dealer's endpoint and takes the fillers, which must be all that waits.</summary>
    private static void BindAndDrainFillers(Socket receiver, string endpoint, int queued)
    {
        receiver.Bind(endpoint);
        for (int i = 0; i < queued; i++)
        {
            Assert.Equal([$"filler {i}"], Frames.RecvStrings(receiver));
        }

        Frames.AssertNothingWaiting(receiver);
    }

    [Fact]
    public void Byte_array_frames_on_a_full_socket_with_dont_wait_return_false_and_queue_nothing()
    {
        using Socket dealer = Sockets.New(Context, SocketType.Dealer);
        using Socket receiver = Sockets.New(Context, SocketType.Dealer);
        var (endpoint, queued) = ConnectToNobodyAndFill(dealer);

        Assert.False(dealer.SendMultipart(["a"u8.ToArray(), "b"u8.ToArray()], SendFlags.DontWait));

        BindAndDrainFillers(receiver, endpoint, queued);

        // Nothing of the refused message is pending: the next one arrives alone and whole.
        Assert.True(dealer.SendMultipart(["c"u8.ToArray(), "d"u8.ToArray()]));
        Assert.Equal(["c", "d"], Frames.RecvStrings(receiver));
    }

    [Fact]
    public void Multipart_message_on_a_full_socket_with_dont_wait_returns_false_and_keeps_its_frames()
    {
        using Socket dealer = Sockets.New(Context, SocketType.Dealer);
        using Socket receiver = Sockets.New(Context, SocketType.Dealer);
        var (endpoint, queued) = ConnectToNobodyAndFill(dealer);
        using var message = new MultipartMessage { "a", "b" };

        Assert.False(dealer.SendMultipart(message, SendFlags.DontWait));
        Assert.Equal(["a", "b"], message.Select(frame => frame.ToString()));

        BindAndDrainFillers(receiver, endpoint, queued);

        // The same message, kept intact by the refusal, can be sent once there is room.
        Assert.True(dealer.SendMultipart(message));
        Assert.Equal(["a", "b"], Frames.RecvStrings(receiver));
    }
}
