using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class PairInprocTests : ContextPerTest
{
    [Fact]
    public void Pair_sockets_talk_in_both_directions_over_inproc()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;

        for (int i = 0; i < 10; i++)
        {
            Assert.True(left.Send($"left {i}"));
            Assert.True(right.Send($"right {i}"));
        }

        for (int i = 0; i < 10; i++)
        {
            Assert.Equal($"left {i}", right.RecvString());
            Assert.Equal($"right {i}", left.RecvString());
        }

        Frames.AssertNothingWaiting(left);
        Frames.AssertNothingWaiting(right);
    }

    [Fact]
    public void Pair_connected_before_bind_delivers_once_the_peer_binds()
    {
        using Socket left = Sockets.New(Context, SocketType.Pair);
        using Socket right = Sockets.New(Context, SocketType.Pair);
        string endpoint = Endpoints.NewInproc();

        right.Connect(endpoint);
        Assert.True(right.Send("sent before the bind"));
        left.Bind(endpoint);

        Assert.Equal("sent before the bind", left.RecvString());
        Assert.True(left.Send("answer"));
        Assert.Equal("answer", right.RecvString());
    }

    [Fact]
    public void Second_pair_connection_is_refused_so_messages_stay_between_the_first_two()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using Socket intruder = Sockets.New(pair.Context, SocketType.Pair); // inproc names belong to one context
        Assert.True(right.Send("from right"));
        Assert.Equal("from right", left.RecvString());

        // A PAIR accepts one peer: whatever the third socket manages to queue is never delivered.
        intruder.Connect(pair.Endpoint);
        _ = intruder.Send("from intruder", SendFlags.DontWait);
        Assert.True(right.Send("right again"));

        Assert.Equal("right again", left.RecvString());
        Frames.AssertNothingWaiting(left);
    }
}
