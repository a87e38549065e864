using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// A send leaves a <see cref="Message"/> empty: sending it again is refused instead of sending an empty frame, until
/// something fills it again.
/// </summary>
public class ResendTests
{
    [Fact]
    public void Sending_a_sent_message_again_throws_and_sends_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new Message("once");
        push.Send(message);

        var error = Assert.Throws<InvalidOperationException>(() => push.Send(message));

        Assert.Contains("sent already", error.Message, StringComparison.Ordinal);
        Assert.Contains("new Message", error.Message, StringComparison.Ordinal);
        Assert.Equal("once", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void Sending_a_sent_multipart_message_again_throws_and_sends_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        push.SendMultipart(message);

        var error = Assert.Throws<InvalidOperationException>(() => push.SendMultipart(message));

        Assert.Contains("MultipartMessage was sent already", error.Message, StringComparison.Ordinal);
        Assert.Equal(["a", "b"], Frames.RecvStrings(pull));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task Sending_a_sent_message_again_asynchronously_throws()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new Message("once");
        await push.SendAsync(message);

        Assert.Throws<InvalidOperationException>(() => push.SendAsync(message));
        Assert.Throws<InvalidOperationException>(() => push.SendAsync(message, CancellationToken.None));
        Assert.Equal("once", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task Sending_a_sent_multipart_message_again_asynchronously_throws()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        await push.SendMultipartAsync(message);

        Assert.Throws<InvalidOperationException>(() => push.SendMultipartAsync(message));
        Assert.Equal(["a", "b"], Frames.RecvStrings(pull));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void A_multipart_message_sent_frame_by_frame_refuses_its_sent_frames_too()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new MultipartMessage();
        message.Add("a");
        push.Send(message[0]);

        Assert.Throws<InvalidOperationException>(() => push.SendMultipart(message));
        Assert.Equal("a", pull.RecvString());
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void Receiving_into_a_sent_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using var message = new Message("ping");
        right.Send(message);

        Assert.True(left.Recv(message));
        left.Send(message); // echoes the frame it received

        Assert.Equal("ping", right.RecvString());
    }

    [Fact]
    public async Task Receiving_asynchronously_into_a_sent_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using var message = new Message("ping");
        await right.SendAsync(message);

        await left.RecvAsync(message);
        await left.SendAsync(message);

        Assert.Equal("ping", right.RecvString());
    }

    [Fact]
    public void Receiving_into_a_sent_multipart_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using var message = new MultipartMessage();
        message.Add("a");
        message.Add("b");
        right.SendMultipart(message);

        Assert.True(left.RecvMultipart(message));
        left.SendMultipart(message);

        Assert.Equal(["a", "b"], Frames.RecvStrings(right));
    }

    [Fact]
    public void Copying_into_a_sent_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new Message("first");
        using var next = new Message("second");
        push.Send(message);

        message.Copy(next);
        push.Send(message);

        Assert.Equal("first", pull.RecvString());
        Assert.Equal("second", pull.RecvString());
    }

    [Fact]
    public void Moving_into_a_sent_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new Message("first");
        using var next = new Message("second");
        push.Send(message);

        message.Move(next);
        push.Send(message);

        Assert.Equal("first", pull.RecvString());
        Assert.Equal("second", pull.RecvString());
        Assert.Equal(0, next.Size);
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
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var empty = new Message();

        push.Send(empty);

        Assert.Empty(pull.RecvBytes());
    }

    [Fact]
    public void The_timed_and_frame_list_sends_refuse_a_sent_message_too()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var single = new Message("timed");
        using var first = new Message("a");
        using var second = new Message("b");
        Assert.True(push.TrySend(single, Timeouts.Wait));
        Assert.True(push.SendMultipart(new[] { first, second }));

        Assert.Throws<InvalidOperationException>(() => push.TrySend(single, Timeouts.Wait));
        Assert.Throws<InvalidOperationException>(() => push.SendMultipart(new[] { first, second }));
        Assert.Equal("timed", pull.RecvString());
        Assert.Equal(["a", "b"], Frames.RecvStrings(pull));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void Rebuilding_a_sent_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new Message("first");
        push.Send(message);

        message.Rebuild(6);
        "second"u8.CopyTo(message.Data);
        push.Send(message);
        message.Rebuild();
        push.Send(message);

        Assert.Equal("first", pull.RecvString());
        Assert.Equal("second", pull.RecvString());
        Assert.Equal("", pull.RecvString());
    }

    [Fact]
    public void Receiving_with_a_timeout_into_a_sent_message_makes_it_sendable_again()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var message = new Message("out");
        push.Send(message);
        Assert.True(pull.TryRecv(message, Timeouts.Wait));

        push.Send(message);

        Assert.Equal("out", pull.RecvString());
    }
}
