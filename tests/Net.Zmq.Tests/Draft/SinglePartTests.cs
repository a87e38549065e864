using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

public class SinglePartTests
{
    [DraftFact]
    public void SendMore_and_multipart_sends_are_refused_before_anything_is_queued_then_a_single_part_send_works()
    {
        using var pair = SocketPair.Open(SocketType.Channel, SocketType.Channel, inproc: true);
        var (left, right) = pair;

        var sendMore = Assert.Throws<ArgumentException>(() => left.Send("first part", SendFlags.SendMore));
        Assert.Contains("single-part", sendMore.Message, StringComparison.Ordinal);
        using (var frame = new Message("frame"))
        {
            Assert.Throws<ArgumentException>(() => left.Send(frame, SendFlags.SendMore | SendFlags.DontWait));
            Assert.Equal("frame", frame.ToString()); // untouched: still the caller's to send
        }

        Assert.Throws<ArgumentException>(() => left.SendMultipart(["a"u8.ToArray(), "b"u8.ToArray()]));
        using (var two = new MultipartMessage())
        {
            two.Add("a");
            two.Add("b");
            var multipart = Assert.Throws<ArgumentException>(() => left.SendMultipart(two));
            Assert.Contains("2 frames", multipart.Message, StringComparison.Ordinal);
        }

        Frames.AssertNothingWaiting(right);
        Assert.True(left.Send("whole"));
        Assert.True(left.SendMultipart(["one frame"u8.ToArray()]));

        using MultipartMessage received = right.RecvMultipart();
        Assert.Single(received);
        Assert.Equal("whole", received[0].ToString());
        Assert.Equal("one frame", right.RecvString());
        Frames.AssertNothingWaiting(right);
    }
}
