using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// A send leaves a <see cref="Message"/> empty: sending it again is refused instead of sending an empty frame, until
/// something fills it again.
/// </summary>
public class ResendTests() : PushPullPerTest(inproc: true)
{
    [Fact]
    public void Sending_a_sent_message_again_throws_and_sends_nothing()
    {
        using var message = new Message("once");
        Push.Send(message);

        var error = Assert.Throws<InvalidOperationException>(() => Push.Send(message));

        Assert.Contains("sent already", error.Message, StringComparison.Ordinal);
        Assert.Contains("new Message", error.Message, StringComparison.Ordinal);
        Assert.Equal("once", Pull.RecvString());
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public void Sending_a_sent_multipart_message_again_throws_and_sends_nothing()
    {
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        Push.SendMultipart(message);

        var error = Assert.Throws<InvalidOperationException>(() => Push.SendMultipart(message));

        Assert.Contains("MultipartMessage was sent already", error.Message, StringComparison.Ordinal);
        Assert.Equal(["a", "b"], Frames.RecvStrings(Pull));
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public async Task Sending_a_sent_message_again_asynchronously_throws()
    {
        using var message = new Message("once");
        await Push.SendAsync(message);

        Assert.Throws<InvalidOperationException>(() => Push.SendAsync(message));
        Assert.Throws<InvalidOperationException>(() => Push.SendAsync(message, CancellationToken.None));
        Assert.Equal("once", Pull.RecvString());
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public async Task Sending_a_sent_multipart_message_again_asynchronously_throws()
    {
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        await Push.SendMultipartAsync(message);

        Assert.Throws<InvalidOperationException>(() => Push.SendMultipartAsync(message));
        Assert.Equal(["a", "b"], Frames.RecvStrings(Pull));
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public void A_multipart_message_sent_frame_by_frame_refuses_its_sent_frames_too()
    {
        using var message = new MultipartMessage();
        message.Add("a");
        Push.Send(message[0]);

        Assert.Throws<InvalidOperationException>(() => Push.SendMultipart(message));
        Assert.Equal("a", Pull.RecvString());
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public void Receiving_into_a_sent_message_makes_it_sendable_again()
    {
        using var message = new Message("ping");
        Push.Send(message);

        Assert.True(Pull.Recv(message));
        Push.Send(message); // sends on the frame it received

        Assert.Equal("ping", Pull.RecvString());
    }

    [Fact]
    public async Task Receiving_asynchronously_into_a_sent_message_makes_it_sendable_again()
    {
        using var message = new Message("ping");
        await Push.SendAsync(message, Timeout.Token);

        await Pull.RecvAsync(message, Timeout.Token);
        await Push.SendAsync(message, Timeout.Token);

        Assert.Equal("ping", Pull.RecvString());
    }

    [Fact]
    public void Receiving_into_a_sent_multipart_message_makes_it_sendable_again()
    {
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        Push.SendMultipart(message);

        Assert.True(Pull.RecvMultipart(message));
        Push.SendMultipart(message);

        Assert.Equal(["a", "b"], Frames.RecvStrings(Pull));
    }

    [Theory]
    [InlineData("Copy")]
    [InlineData("Move")]
    public void Copying_or_moving_into_a_sent_message_makes_it_sendable_again(string fill)
    {
        using var message = new Message("first");
        using var next = new Message("second");
        Push.Send(message);

        if (fill == "Copy")
        {
            message.Copy(next);
        }
        else
        {
            message.Move(next);
        }

        Push.Send(message);

        Assert.Equal("first", Pull.RecvString());
        Assert.Equal("second", Pull.RecvString());
        Assert.Equal(fill == "Copy" ? 6 : 0, next.Size); // a copy leaves its source as it was, a move empties it
    }

    [Fact]
    public void A_send_that_found_no_room_leaves_the_message_sendable()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new Message("later");

        Assert.False(push.Send(message, SendFlags.DontWait)); // no peer yet: nothing taken
        pair.Connect();
        push.Send(message);

        Assert.Equal("later", pull.RecvString());
    }

    [Fact]
    public void A_new_empty_message_is_sendable_as_an_empty_frame()
    {
        using var empty = new Message();

        Push.Send(empty);

        Assert.Empty(Pull.RecvBytes());
    }

    [Fact]
    public void The_timed_and_frame_list_sends_refuse_a_sent_message_too()
    {
        using var single = new Message("timed");
        using var first = new Message("a");
        using var second = new Message("b");
        Assert.True(Push.TrySend(single, Timeouts.Wait));
        Assert.True(Push.SendMultipart(new[] { first, second }));

        Assert.Throws<InvalidOperationException>(() => Push.TrySend(single, Timeouts.Wait));
        Assert.Throws<InvalidOperationException>(() => Push.SendMultipart(new[] { first, second }));
        Assert.Equal("timed", Pull.RecvString());
        Assert.Equal(["a", "b"], Frames.RecvStrings(Pull));
        Frames.AssertNothingWaiting(Pull);
    }

    [Fact]
    public void Rebuilding_a_sent_message_makes_it_sendable_again()
    {
        using var message = new Message("first");
        Push.Send(message);

        message.Rebuild(6);
        "second"u8.CopyTo(message.Data);
        Push.Send(message);
        message.Rebuild();
        Push.Send(message);

        Assert.Equal("first", Pull.RecvString());
        Assert.Equal("second", Pull.RecvString());
        Assert.Equal("", Pull.RecvString());
    }

    [Fact]
    public void Receiving_with_a_timeout_into_a_sent_message_makes_it_sendable_again()
    {
        using var message = new Message("out");
        Push.Send(message);
        Assert.True(Pull.TryRecv(message, Timeouts.Wait));

        Push.Send(message);

        Assert.Equal("out", Pull.RecvString());
    }
}
