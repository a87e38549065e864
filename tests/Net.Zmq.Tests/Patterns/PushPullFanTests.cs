using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Patterns;

public class PushPullFanOutTests : ContextPerTest
{
    [Fact]
    public void One_push_spreads_messages_over_several_pulls_delivering_each_exactly_once()
    {
        const int Workers = 3;
        const int Messages = 300;
        using Socket ventilator = Sockets.New(Context, SocketType.Push);
        var workers = new List<Socket>();
        try
        {
            for (int w = 0; w < Workers; w++)
            {
                Socket worker = Sockets.New(Context, SocketType.Pull);
                workers.Add(worker);

                // The PUSH connects to every PULL: each connect creates its pipe at once, so all workers share the load.
                ventilator.Connect(Endpoints.BindTcp(worker));
            }

            for (int i = 0; i < Messages; i++)
            {
                Assert.True(ventilator.Send($"task {i}"));
            }

            var perWorker = new List<string>[Workers];
            using var poller = new Poller(Workers);
            for (int w = 0; w < Workers; w++)
            {
                perWorker[w] = [];
                Assert.Equal(w, poller.Add(workers[w], PollEvents.In));
            }

            int total = 0;
            while (total < Messages)
            {
                Assert.True(poller.Poll(Timeouts.WaitMs) > 0, $"only {total} of {Messages} tasks arrived");
                for (int w = 0; w < Workers; w++)
                {
                    while (poller.IsReadable(w) && workers[w].TryRecvString(out string? task))
                    {
                        perWorker[w].Add(task!);
                        total++;
                    }
                }
            }

            string[] all = perWorker.SelectMany(tasks => tasks).ToArray();
            Assert.Equal(Messages, all.Length);
            Assert.Equal(Enumerable.Range(0, Messages).Select(i => $"task {i}").Order(), all.Order());
            Assert.All(perWorker, tasks => Assert.NotEmpty(tasks));
            foreach (Socket worker in workers)
            {
                Frames.AssertNothingWaiting(worker);
            }
        }
        finally
        {
            workers.ForEach(worker => worker.Dispose());
        }
    }

    [Fact]
    public void Push_hands_messages_to_pulls_round_robin()
    {
        const int Workers = 3;
        using Socket ventilator = Sockets.New(Context, SocketType.Push);
        var workers = new List<Socket>();
        try
        {
            for (int w = 0; w < Workers; w++)
            {
                Socket worker = Sockets.New(Context, SocketType.Pull);
                workers.Add(worker);
                ventilator.Connect(Endpoints.BindInproc(worker));
            }

            for (int i = 0; i < Workers * 4; i++)
            {
                Assert.True(ventilator.Send($"{i}"));
            }

            // Each worker gets every third message, in order.
            for (int w = 0; w < Workers; w++)
            {
                int[] got = Enumerable.Range(0, 4).Select(_ => int.Parse(workers[w].RecvString(), System.Globalization.CultureInfo.InvariantCulture)).ToArray();
                Assert.Equal(4, got.Length);
                Assert.All(got.Zip(got.Skip(1)), pair => Assert.Equal(Workers, pair.Second - pair.First));
                Frames.AssertNothingWaiting(workers[w]);
            }
        }
        finally
        {
            workers.ForEach(worker => worker.Dispose());
        }
    }
}
