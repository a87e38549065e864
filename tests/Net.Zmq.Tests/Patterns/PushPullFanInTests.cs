using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class PushPullFanInTests : ContextPerTest
{
    [Fact]
    public void Several_pushes_feed_one_pull_and_every_message_arrives_in_per_sender_order()
    {
        const int Senders = 4;
        const int PerSender = 250;
        using Socket sink = Sockets.New(Context, SocketType.Pull);
        string endpoint = Endpoints.BindTcp(sink);
        var senders = new List<Socket>();
        try
        {
            for (int s = 0; s < Senders; s++)
            {
                Socket sender = Sockets.New(Context, SocketType.Push);
                senders.Add(sender);
                sender.Connect(endpoint);
            }

            for (int i = 0; i < PerSender; i++)
            {
                for (int s = 0; s < Senders; s++)
                {
                    Assert.True(senders[s].Send($"{s}:{i}"));
                }
            }

            var next = new int[Senders];
            for (int n = 0; n < Senders * PerSender; n++)
            {
                string[] parts = sink.RecvString().Split(':');
                int sender = int.Parse(parts[0], System.Globalization.CultureInfo.InvariantCulture);
                int sequence = int.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture);
                Assert.Equal(next[sender], sequence);
                next[sender]++;
            }

            Assert.All(next, count => Assert.Equal(PerSender, count));
            Frames.AssertNothingWaiting(sink);
        }
        finally
        {
            senders.ForEach(sender => sender.Dispose());
        }
    }
}
