using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

/// <summary>MultipartMessage's frame editing: both ends, any index, and the address envelopes of ROUTER sockets.</summary>
public class FrameEditingTests
{
    [Fact]
    public void Push_Append_and_Insert_put_frames_where_they_say()
    {
        using var message = new MultipartMessage();
        Assert.True(message.IsEmpty);
        message.Append("c");
        message.Push("a"u8);
        message.Insert(1, "b"u8.ToArray());
        message.Append(new Message("d"));
        message.Insert(4, "e");
        message.Push(new Message("0"));
        message.PushEmpty();
        message.Append([(byte)'f']);

        Assert.False(message.IsEmpty);
        Assert.Equal(["", "0", "a", "b", "c", "d", "e", "f"], message.Select(frame => frame.ToString()));
        Assert.Equal("", message.First.ToString());
        Assert.Equal("f", message.Last.ToString());
        Assert.Throws<ArgumentOutOfRangeException>(() => message.Insert(9, "x"));
        Assert.Throws<ArgumentOutOfRangeException>(() => message.Insert(-1, new Message()));
        Assert.Equal(8, message.Count);
    }

    [Fact]
    public void Pop_hands_the_first_frame_over_and_RemoveAt_disposes_the_one_it_removes()
    {
        var message = new MultipartMessage { "a", "b", "c" };

        Message popped = message.Pop();
        Message removed = message[1];
        message.RemoveAt(1);
        message.Dispose();

        Assert.True(removed.IsDisposed);
        Assert.False(popped.IsDisposed); // the caller's now: the message's Dispose left it alone
        Assert.Equal("a", popped.ToString());
        popped.Dispose();
    }

    [Fact]
    public void The_editing_members_of_an_empty_message_say_so()
    {
        using var message = new MultipartMessage();
        Assert.Throws<InvalidOperationException>(() => message.First);
        Assert.Throws<InvalidOperationException>(() => message.Last);
        Assert.Throws<InvalidOperationException>(() => message.Pop());
        Assert.Throws<InvalidOperationException>(() => message.Unwrap());
        Assert.Throws<ArgumentOutOfRangeException>(() => message.RemoveAt(0));
    }

    [Fact]
    public void Editing_a_message_that_was_received_into_and_receiving_into_it_again_keep_the_right_frames()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new MultipartMessage();

        Frames.SendStrings(push, "1", "2", "3", "4");
        Assert.True(pull.RecvMultipart(message));
        using Message first = message.Pop();
        message.RemoveAt(message.Count - 1);
        message.Push("0");
        Assert.Equal(["0", "2", "3"], message.Select(frame => frame.ToString()));

        // The next receive reuses what the message still holds, never the popped frame.
        Frames.SendStrings(push, "x", "y");
        Assert.True(pull.RecvMultipart(message));
        Assert.Equal(["x", "y"], message.Select(frame => frame.ToString()));
        Assert.Equal("1", first.ToString());
    }

    [Fact]
    public void A_router_unwraps_the_request_envelope_and_wraps_the_reply_in_it()
    {
        using var pair = SocketPair.Open(SocketType.Router, SocketType.Req);
        var (router, req) = pair;
        req.Send("request");

        using MultipartMessage received = router.RecvMultipart();
        Assert.Equal(3, received.Count); // routing id, empty delimiter, body
        using Message address = received.Unwrap();
        Assert.Equal(["request"], received.Select(frame => frame.ToString()));

        using var reply = new MultipartMessage();
        reply.Add("reply");
        reply.Wrap(address.ToArray());
        Assert.Equal(3, reply.Count);
        Assert.Equal(0, reply[1].Size);
        Assert.True(router.SendMultipart(reply));

        Assert.Equal("reply", req.RecvString());
    }

    [Fact]
    public void Unwrap_without_a_delimiter_takes_the_address_only()
    {
        using var message = new MultipartMessage();
        message.Add("body");
        message.Wrap("address");
        message.RemoveAt(1); // no delimiter, as between DEALER and ROUTER
        message.Wrap(new Message("outer"));

        using (Message outer = message.Unwrap())
        {
            Assert.Equal("outer", outer.ToString());
        }

        using (Message address = message.Unwrap())
        {
            Assert.Equal("address", address.ToString());
        }

        Assert.Equal(["body"], message.Select(frame => frame.ToString()));
    }

    [Fact]
    public void A_disposed_frame_is_refused_and_leaves_the_message_as_it_was()
    {
        using var message = new MultipartMessage();
        message.Add("a");
        var disposed = new Message("x");
        disposed.Dispose();

        Assert.Throws<ObjectDisposedException>(() => message.Push(disposed));
        Assert.Throws<ObjectDisposedException>(() => message.Wrap(disposed));
        Assert.Throws<ArgumentNullException>(() => message.Wrap((Message)null!));
        Assert.Equal(["a"], message.Select(frame => frame.ToString()));
    }
}
