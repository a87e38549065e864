using System.Text;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Send;

/// <summary>Every synchronous send overload delivers exactly the bytes it was given, as one frame or as a part of one message.</summary>
public sealed class SendOverloadTests
{
    [Theory]
    [MemberData(nameof(SendOverloads.Names), MemberType = typeof(SendOverloads))]
    public void Each_overload_delivers_its_bytes_as_one_frame(string overload)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        // Longer than the 33 bytes libzmq keeps inside zmq_msg_t, and a short one, which it does keep there.
        byte[] large = Encoding.ASCII.GetBytes(new string('x', 200));

        Assert.True(SendOverloads.Send(overload, push, large));
        Assert.True(SendOverloads.Send(overload, push, "short"u8.ToArray()));
        Assert.True(SendOverloads.Send(overload, push, []));

        Assert.Equal(large, pull.RecvBytes());
        Assert.Equal("short", pull.RecvString());
        Assert.Empty(pull.RecvBytes());
        Frames.AssertNothingWaiting(pull);
    }

    [Theory]
    [MemberData(nameof(SendOverloads.Names), MemberType = typeof(SendOverloads))]
    public void SendMore_makes_the_next_frame_part_of_the_same_message(string overload)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;

        Assert.True(SendOverloads.Send(overload, push, "first"u8.ToArray(), SendFlags.SendMore));
        Assert.True(SendOverloads.Send(overload, push, "second"u8.ToArray(), SendFlags.SendMore));
        Assert.True(SendOverloads.Send(overload, push, "last"u8.ToArray()));

        using MultipartMessage message = pull.RecvMultipart();
        Assert.Equal(["first", "second", "last"], message.Select(frame => frame.ToString()));
        Assert.Equal([true, true, false], message.Select(frame => frame.More));
    }
}
