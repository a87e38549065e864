using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

/// <summary>Multipart messages sent and received whole: frames, their order, their More flags, empty frames.</summary>
public class MultipartRoundTripTests
{
    [Fact]
    public void Three_frame_message_round_trips_with_more_set_on_all_but_the_last_frame()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;

        using var outgoing = new MultipartMessage { "header", new byte[] { 1, 2, 3, 4 }, new Message("body") };
        Assert.True(push.SendMultipart(outgoing));

        using MultipartMessage incoming = pull.RecvMultipart();
        Assert.Equal(3, incoming.Count);
        Assert.Equal("header", incoming[0].ToString());
        Assert.Equal(new byte[] { 1, 2, 3, 4 }, incoming[1].ToArray());
        Assert.Equal("body", incoming[2].ToString());
        Assert.Equal([true, true, false], incoming.Select(frame => frame.More));
    }

    [Fact]
    public void Sent_frames_are_left_empty_but_usable()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;

        using var outgoing = new MultipartMessage { "one", "two" };
        Assert.True(push.SendMultipart(outgoing));

        Assert.Equal(2, outgoing.Count);
        Assert.All(outgoing, frame =>
        {
            Assert.False(frame.IsDisposed);
            Assert.Equal(0, frame.Size);
        });
        Assert.Equal(["one", "two"], Frames.RecvStrings(pull));
    }

    [Fact]
    public void Empty_frames_keep_their_place_in_a_multipart_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;

        using var outgoing = new MultipartMessage();
        outgoing.AddEmpty();
        outgoing.Add("middle");
        outgoing.Add(Array.Empty<byte>());
        outgoing.AddEmpty();
        Assert.True(push.SendMultipart(outgoing));

        using MultipartMessage incoming = pull.RecvMultipart();
        Assert.Equal([0, 6, 0, 0], incoming.Select(frame => frame.Size));
        Assert.Equal("middle", incoming[1].ToString());
        Assert.Equal([true, true, true, false], incoming.Select(frame => frame.More));
    }

    [Fact]
    public void Single_empty_frame_is_a_valid_multipart_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;

        Assert.True(push.SendMultipart([Array.Empty<byte>()]));

        using MultipartMessage incoming = pull.RecvMultipart();
        Assert.Single(incoming);
        Assert.Equal(0, incoming[0].Size);
        Assert.False(incoming[0].More);
    }

    [Fact]
    public void Byte_array_frames_round_trip_through_the_list_overload()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        byte[][] frames =
        [
            "id"u8.ToArray(),
            [],
            Enumerable.Range(0, 100_000).Select(i => (byte)i).ToArray(),
            [0xFF],
        ];

        Assert.True(push.SendMultipart(frames));

        using MultipartMessage incoming = pull.RecvMultipart();
        Assert.Equal(frames.Length, incoming.Count);
        for (int i = 0; i < frames.Length; i++)
        {
            Assert.Equal(frames[i], incoming[i].ToArray());
        }
    }

    [Fact]
    public void Consecutive_multipart_messages_stay_separate()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;

        for (int i = 1; i <= 5; i++)
        {
            using var message = new MultipartMessage(Enumerable.Range(0, i).Select(k => new[] { (byte)i, (byte)k }));
            Assert.True(push.SendMultipart(message, SendFlags.DontWait));
        }

        for (int i = 1; i <= 5; i++)
        {
            using MultipartMessage incoming = pull.RecvMultipart();
            Assert.Equal(i, incoming.Count);
            Assert.All(incoming, frame => Assert.Equal(i, frame.Data[0]));
            Assert.Equal(Enumerable.Range(0, i).Select(k => (byte)k), incoming.Select(frame => frame.Data[1]));
        }

        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void Multipart_envelope_round_trips_between_dealer_and_router()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Dealer, configure: (_, dealer) => dealer.SetOption(SocketOption.RoutingId, "worker"));
        var (router, dealer) = pair;

        Assert.True(dealer.SendMultipart(["job"u8.ToArray(), "42"u8.ToArray()]));

        using MultipartMessage request = router.RecvMultipart();
        Assert.Equal(["worker", "job", "42"], request.Select(frame => frame.ToString()));

        // Send the received envelope straight back: frames can be re-sent as they are.
        Assert.True(router.SendMultipart(request));
        Assert.Equal(["job", "42"], Frames.RecvStrings(dealer));
    }

    [Fact]
    public void TryRecvMultipart_returns_a_whole_waiting_message_and_then_false()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        Frames.SendStrings(push, "one", "two", "three");

        Frames.AwaitWaiting(pull);

        Assert.True(pull.TryRecvMultipart(out MultipartMessage? message));
        using (message)
        {
            Assert.NotNull(message);
            Assert.Equal(["one", "two", "three"], message.Select(frame => frame.ToString()));
            Assert.Equal([true, true, false], message.Select(frame => frame.More));
        }

        Assert.False(pull.TryRecvMultipart(out MultipartMessage? none));
        Assert.Null(none);
    }
}
