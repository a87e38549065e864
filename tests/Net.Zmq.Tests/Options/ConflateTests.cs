using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

/// <summary>
/// <see cref="SocketOption.Conflate"/>: single-part messages only (libzmq aborts the process when a conflating socket
/// receives a multipart message), so a socket with it set refuses multipart sends before anything is queued; and it
/// keeps the last message of the socket, not of each topic.
/// </summary>
public class ConflateTests : ContextPerTest
{
    [Fact]
    public void SendMultipart_on_a_conflating_socket_is_refused_before_anything_is_sent()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (_, push) => push.SetOption(SocketOption.Conflate, true));
        var (pull, push) = pair;
        using var message = new MultipartMessage();
        message.Add("topic");
        message.Add("payload");

        var error = Assert.Throws<ArgumentException>(() => push.SendMultipart(message));
        Assert.Throws<ArgumentException>(() => push.SendMultipart([[1], [2]]));

        Assert.Contains("Conflate", error.Message, StringComparison.Ordinal);
        Assert.Contains("aborts", error.Message, StringComparison.Ordinal);
        Assert.Equal("topic", message[0].ToString()); // nothing was taken from it
        Frames.AssertNothingWaiting(pull);
        push.Send("one frame");
        Assert.Equal("one frame", pull.RecvString());
    }

    [Fact]
    public void SendMore_on_a_conflating_socket_is_refused_for_every_send_overload()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (_, push) => push.SetOption(SocketOption.Conflate, true));
        var (pull, push) = pair;
        using var frame = new Message("frame");

        Assert.Throws<ArgumentException>(() => push.Send("text", SendFlags.SendMore));
        Assert.Throws<ArgumentException>(() => push.Send(new byte[] { 1 }, SendFlags.SendMore));
        Assert.Throws<ArgumentException>(() => push.Send(frame, SendFlags.SendMore));
        Assert.Throws<ArgumentException>(() => push.SendAsync("text", SendFlags.SendMore));
        Assert.Throws<ArgumentException>(() => push.SendAsync(new byte[] { 1 }, SendFlags.SendMore));
        Assert.Throws<ArgumentException>(() => push.SendAsync(new ReadOnlyMemory<byte>([1]), SendFlags.SendMore));
        Assert.Throws<ArgumentException>(() => push.SendAsync(frame, SendFlags.SendMore));

        Assert.Equal(5, frame.Size);
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public async Task SendMultipartAsync_on_a_conflating_socket_is_refused()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (_, push) => push.SetOption(SocketOption.Conflate, true));
        var (pull, push) = pair;
        using var message = new MultipartMessage();
        message.Add("topic");
        message.Add("payload");

        Assert.Throws<ArgumentException>(() => push.SendMultipartAsync(message));

        await push.SendAsync("one frame");
        Assert.Equal("one frame", pull.RecvString());
    }

    [Fact]
    public void A_single_frame_multipart_message_is_sent_on_a_conflating_socket()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true, configure: (_, push) => push.SetOption(SocketOption.Conflate, true));
        var (pull, push) = pair;
        using var message = new MultipartMessage();
        message.Add("alone");

        push.SendMultipart(message);

        Assert.Equal("alone", pull.RecvString());
    }

    [Fact]
    public void Clearing_Conflate_allows_multipart_sends_again()
    {
        using var push = Sockets.New(Context, SocketType.Push);
        push.SetOption(SocketOption.Conflate, true);
        Assert.True(push.GetOption<bool>(SocketOption.Conflate));
        Assert.Throws<ArgumentException>(() => push.Send("a", SendFlags.SendMore));

        push.SetOption(SocketOption.Conflate, false);
        using var pull = Sockets.New(Context, SocketType.Pull);
        string endpoint = Endpoints.BindInproc(pull);
        push.Connect(endpoint);
        Frames.SendStrings(push, "a", "b");

        Assert.Equal(["a", "b"], Frames.RecvStrings(pull));
    }

    [Fact]
    public void A_conflating_subscriber_keeps_the_last_message_of_the_socket_not_of_each_topic()
    {
        using var publisher = Sockets.New(Context, SocketType.XPub);
        string endpoint = Endpoints.BindInproc(publisher);
        using var subscriber = Sockets.New(Context, SocketType.Sub);
        subscriber.SetOption(SocketOption.Conflate, true);
        subscriber.Connect(endpoint);

        // One at a time: the subscriber's outgoing queue conflates too, so a second Subscribe made before the
        // publisher read the first one replaces it.
        subscriber.Subscribe("A");
        Assert.Equal("\u0001A", publisher.RecvString());
        subscriber.Subscribe("B");
        Assert.Equal("\u0001B", publisher.RecvString());

        // Over inproc each send lands in the subscriber's conflating queue before it returns.
        publisher.Send("A 1");
        publisher.Send("B 1");
        Assert.Equal("B 1", subscriber.RecvString()); // the A was replaced by the later B
        Frames.AssertNothingWaiting(subscriber);

        publisher.Send("A 2");
        Assert.Equal("A 2", subscriber.RecvString()); // A was subscribed all along
    }
}
