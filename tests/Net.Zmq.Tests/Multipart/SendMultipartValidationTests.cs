using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Multipart;

public class SendMultipartValidationTests
{
    /// <summary>
    /// Proves the refused call queued nothing: nothing is waiting now, and a message sent next arrives alone, not
    /// glued to frames left pending with SendMore. Also proves the sending socket still works.
    /// </summary>
    private static void AssertPeerReceivedNothingAndSocketStillWorks(Socket sender, Socket receiver)
    {
        Frames.AssertNothingWaiting(receiver);
        Assert.True(sender.SendMultipart(["after"u8.ToArray(), "the failure"u8.ToArray()]));
        Assert.Equal(["after", "the failure"], Frames.RecvStrings(receiver));
        Frames.AssertNothingWaiting(receiver);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public void Null_frame_in_a_list_throws_ArgumentNullException_and_nothing_is_sent(int nullAt)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        byte[]?[] frames = ["a"u8.ToArray(), "b"u8.ToArray(), "c"u8.ToArray()];
        frames[nullAt] = null;

        Assert.Throws<ArgumentNullException>(() => push.SendMultipart(frames!));

        AssertPeerReceivedNothingAndSocketStillWorks(push, pull);
    }

    [Fact]
    public void Empty_list_throws_ArgumentException_and_nothing_is_sent()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;

        var error = Assert.Throws<ArgumentException>(() => push.SendMultipart(Array.Empty<byte[]>()));
        Assert.Equal("frames", error.ParamName);

        AssertPeerReceivedNothingAndSocketStillWorks(push, pull);
    }

    [Fact]
    public void Empty_multipart_message_throws_ArgumentException_and_nothing_is_sent()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var empty = new MultipartMessage();

        var error = Assert.Throws<ArgumentException>(() => push.SendMultipart(empty));
        Assert.Equal("message", error.ParamName);

        AssertPeerReceivedNothingAndSocketStillWorks(push, pull);
    }

    [Fact]
    public void Null_list_or_multipart_message_throws_ArgumentNullException()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;

        Assert.Throws<ArgumentNullException>(() => push.SendMultipart((IReadOnlyList<byte[]>)null!));
        Assert.Throws<ArgumentNullException>(() => push.SendMultipart((MultipartMessage)null!));

        AssertPeerReceivedNothingAndSocketStillWorks(push, pull);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public void Disposed_frame_throws_ObjectDisposedException_and_nothing_is_sent(int disposedAt)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var message = new MultipartMessage { "a", "b", "c" };
        message[disposedAt].Dispose();

        Assert.Throws<ObjectDisposedException>(() => push.SendMultipart(message));

        // The frames before the disposed one were not sent: they still hold their content.
        for (int i = 0; i < message.Count; i++)
        {
            if (i != disposedAt)
            {
                Assert.Equal(((char)('a' + i)).ToString(), message[i].ToString());
            }
        }

        AssertPeerReceivedNothingAndSocketStillWorks(push, pull);
    }

    [Fact]
    public void Disposed_frame_is_refused_over_inproc_too_and_the_pair_still_talks()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using var message = new MultipartMessage { "first", "last" };
        message[1].Dispose();

        Assert.Throws<ObjectDisposedException>(() => right.SendMultipart(message));

        AssertPeerReceivedNothingAndSocketStillWorks(right, left);
    }
}
