using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

/// <summary>SendMultipart from strings, and from Message frames in an array, a list or any sequence.</summary>
public class SendMultipartOverloadTests
{
    [Fact]
    public void SendMultipart_of_strings_sends_them_as_one_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        push.SendMultipart("one", "two", "three");
        push.SendMultipart("alone");
        Assert.Equal(["one", "two", "three"], Frames.RecvStrings(pull));
        Assert.Equal(["alone"], Frames.RecvStrings(pull));
    }

    public static TheoryData<string> Shapes => ["array", "list", "sequence"];

    [Theory]
    [MemberData(nameof(Shapes))]
    public void SendMultipart_of_messages_sends_them_whole_and_leaves_them_empty_for_the_caller_to_dispose(string shape)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        Message[] frames = [new("header"), new("a body longer than the thirty-three bytes kept inline"), new("")];
        try
        {
            Assert.True(push.SendMultipart(Shape(frames, shape)));
            Assert.Equal(["header", "a body longer than the thirty-three bytes kept inline", ""], Frames.RecvStrings(pull));
            Assert.All(frames, frame => Assert.False(frame.IsDisposed));
            Assert.All(frames, frame => Assert.Equal(0, frame.Size));
        }
        finally
        {
            foreach (Message frame in frames)
            {
                frame.Dispose();
            }
        }
    }

    [Fact]
    public void SendMultipart_of_messages_with_a_null_or_disposed_frame_sends_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var kept = new Message("kept");
        var disposed = new Message("gone");
        disposed.Dispose();

        Assert.Throws<ArgumentNullException>(() => push.SendMultipart(new[] { kept, null! }));
        Assert.Throws<ObjectDisposedException>(() => push.SendMultipart(new List<Message> { kept, disposed }));
        Assert.Throws<ArgumentException>(() => push.SendMultipart(Array.Empty<Message>()));
        Assert.Throws<ArgumentNullException>(() => push.SendMultipart("a", null!));
        Assert.Throws<ArgumentException>(() => push.SendMultipart(Array.Empty<string>()));
        Assert.Equal("kept", kept.ToString());

        push.Send("marker");
        Assert.Equal(["marker"], Frames.RecvStrings(pull)); // nothing half-sent came before it
    }

    [Fact]
    public void SendMultipart_of_messages_under_DontWait_with_no_peer_returns_false_and_keeps_every_frame()
    {
        using var pair = SocketPair.OpenUnconnected(SocketType.Pull, SocketType.Push);
        using var a = new Message("a");
        using var b = new Message("b");
        Assert.False(pair.Connector.SendMultipart(new[] { a, b }, SendFlags.DontWait));
        Assert.Equal("a", a.ToString());
        Assert.Equal("b", b.ToString());
    }

    [Fact]
    public void SendMultipart_of_a_message_array_allocates_nothing()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Message[] frames = [new(), new()];
        using var received = new MultipartMessage();
        try
        {
            Assert.Equal(0, Allocations.Measure(() =>
            {
                frames[0].Rebuild(8);
                frames[1].Rebuild(64);
                push.SendMultipart(frames);
                pull.RecvMultipart(received);
            }, 1000));
        }
        finally
        {
            frames[0].Dispose();
            frames[1].Dispose();
        }
    }

    private static IEnumerable<Message> Shape(Message[] frames, string shape) => shape switch
    {
        "array" => frames,
        "list" => frames.ToList(),
        _ => Lazily(frames),
    };

    private static IEnumerable<Message> Lazily(Message[] frames)
    {
        foreach (Message frame in frames)
        {
            yield return frame;
        }
    }
}
