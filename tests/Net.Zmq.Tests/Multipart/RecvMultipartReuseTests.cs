using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

public class RecvMultipartReuseTests
{
    [Fact]
    public void RecvMultipart_into_reuses_the_same_message_objects_for_equal_frame_counts()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        Frames.SendStrings(push, "a1", "b1", "c1");
        Frames.SendStrings(push, "a2", "b2", "c2");

        using var into = new MultipartMessage();
        Assert.True(pull.RecvMultipart(into));
        Message[] firstFrames = into.ToArray();
        Assert.Equal(["a1", "b1", "c1"], into.Select(frame => frame.ToString()));

        Assert.True(pull.RecvMultipart(into));
        Assert.Equal(["a2", "b2", "c2"], into.Select(frame => frame.ToString()));
        Assert.Equal(3, into.Count);
        for (int i = 0; i < 3; i++)
        {
            Assert.Same(firstFrames[i], into[i]);
        }

        Assert.Equal([true, true, false], into.Select(frame => frame.More));
    }

    [Fact]
    public void RecvMultipart_into_keeps_spare_frames_for_a_later_longer_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Frames.SendStrings(push, "a", "b", "c");
        Frames.SendStrings(push, "only");
        Frames.SendStrings(push, "x", "y", "z", "w");

        using var into = new MultipartMessage();
        Assert.True(pull.RecvMultipart(into));
        Message[] original = into.ToArray();

        Assert.True(pull.RecvMultipart(into));
        Assert.Single(into);
        Assert.Equal("only", into[0].ToString());
        Assert.False(into[0].More);
        Assert.Same(original[0], into[0]);
        Assert.Throws<ArgumentOutOfRangeException>(() => into[1]);

        Assert.True(pull.RecvMultipart(into));
        Assert.Equal(["x", "y", "z", "w"], into.Select(frame => frame.ToString()));
        for (int i = 0; i < original.Length; i++)
        {
            Assert.Same(original[i], into[i]);
        }
    }

    [Fact]
    public void RecvMultipart_into_replaces_a_frame_the_caller_disposed()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Frames.SendStrings(push, "a1", "b1");
        Frames.SendStrings(push, "a2", "b2");

        using var into = new MultipartMessage();
        Assert.True(pull.RecvMultipart(into));
        Message kept = into[0];
        Message disposed = into[1];
        disposed.Dispose();

        Assert.True(pull.RecvMultipart(into));
        Assert.Same(kept, into[0]);
        Assert.NotSame(disposed, into[1]);
        Assert.Equal(["a2", "b2"], into.Select(frame => frame.ToString()));
    }

    [Fact]
    public void RecvMultipart_into_with_dont_wait_on_an_empty_socket_returns_false_and_empties_the_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Frames.SendStrings(push, "a", "b");

        Frames.AwaitWaiting(pull);

        using var into = new MultipartMessage();
        Assert.True(pull.RecvMultipart(into, RecvFlags.DontWait));
        Assert.Equal(2, into.Count);

        Assert.False(pull.RecvMultipart(into, RecvFlags.DontWait));
        Assert.Empty(into);
    }

    [Fact]
    public void Adding_after_a_shorter_receive_appends_after_the_received_frames()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Frames.SendStrings(push, "a", "b", "c");
        Frames.SendStrings(push, "only");

        using var into = new MultipartMessage();
        Assert.True(pull.RecvMultipart(into));
        Assert.True(pull.RecvMultipart(into));
        into.Add("appended");

        Assert.Equal(["only", "appended"], into.Select(frame => frame.ToString()));

        // The rebuilt message is sendable as is.
        Assert.True(push.SendMultipart(into));
        Assert.Equal(["only", "appended"], Frames.RecvStrings(pull));
    }
}
