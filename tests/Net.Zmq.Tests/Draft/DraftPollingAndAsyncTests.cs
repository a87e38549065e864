using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

public class DraftPollingAndAsyncTests : ContextPerTest
{
    [DraftFact]
    public void Poller_waits_on_a_Server_and_a_Dish_together()
    {
        using Socket server = Sockets.New(Context, SocketType.Server);
        using Socket client = Sockets.New(Context, SocketType.Client);
        using Socket radio = Sockets.New(Context, SocketType.Radio);
        using Socket dish = Sockets.New(Context, SocketType.Dish);
        client.Connect(Endpoints.BindTcp(server));
        dish.Connect(Endpoints.BindInproc(radio));
        dish.Join("g");
        DraftSupport.AwaitJoin(radio, dish, "g");

        using var poller = new Poller();
        int serverIndex = poller.Add(server, PollEvents.In);
        int dishIndex = poller.Add(dish, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));

        DraftSupport.Send(client, "request");
        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(serverIndex));
        Assert.False(poller.IsReadable(dishIndex));
        Assert.Equal("request", server.RecvString());

        using (var news = new Message("news") { Group = "g" })
        {
            Assert.True(radio.Send(news));
        }

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(dishIndex));
        Assert.False(poller.IsReadable(serverIndex));
        Assert.Equal("news", dish.RecvString());
        Assert.Equal(0, poller.Poll(0));
    }

    [DraftFact]
    public async Task Async_methods_refuse_a_draft_socket_at_once_and_the_blocking_calls_still_work()
    {
        using var pair = SocketPair.Open(SocketType.Server, SocketType.Client);
        var (server, client) = pair;
        using var message = new Message();
        using var multipart = new MultipartMessage();

        AssertRefused(Assert.Throws<NotSupportedException>(() => { _ = client.RecvAsync(new byte[16]); }));
        AssertRefused(Assert.Throws<NotSupportedException>(() => { _ = client.RecvAsync(message); }));
        AssertRefused(Assert.Throws<NotSupportedException>(() => { _ = client.RecvStringAsync(); }));
        AssertRefused(Assert.Throws<NotSupportedException>(() => { _ = client.RecvMultipartAsync(multipart); }));
        AssertRefused(Assert.Throws<NotSupportedException>(() => { _ = client.SendAsync("hello"); }));
        AssertRefused(Assert.Throws<NotSupportedException>(() => { _ = client.SendAsync(new byte[] { 1 }); }));
        AssertRefused(await Assert.ThrowsAsync<NotSupportedException>(async () =>
        {
            await foreach (Message _ in server.RecvAllAsync())
            {
            }
        }));

        DraftSupport.Send(client, "blocking still works");
        Assert.Equal("blocking still works", server.RecvString());
    }

    [DraftFact]
    public void Draft_sockets_read_their_type_and_report_themselves_thread_safe()
    {
        foreach (SocketType type in Enum.GetValues<SocketType>().Where(type => type >= SocketType.Server))
        {
            using Socket socket = Sockets.New(Context, type);
            Assert.Equal((int)type, socket.GetOption<int>(SocketOption.Type));
            Assert.True(socket.GetOption<bool>(SocketOption.ThreadSafe), $"{type} should be thread-safe");
            Assert.Throws<ZmqException>(() => socket.GetOption<long>(SocketOption.FileDescriptor));
        }
    }

    private static void AssertRefused(NotSupportedException exception)
    {
        Assert.Contains("ZMQ_FD", exception.Message, StringComparison.Ordinal);
        Assert.Contains("Poller", exception.Message, StringComparison.Ordinal);
    }
}
