using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class BlockingCallsEndOnShutdownTests : ContextPerTest
{
    private static readonly Dictionary<string, Action<Socket>> s_blockingCalls = new()
    {
        ["Recv(span)"] = s => s.Recv(new byte[16]),
        ["Recv(Message)"] = s =>
        {
            using var message = new Message();
            s.Recv(message);
        },
        ["RecvString"] = s => s.RecvString(),
        ["RecvMultipart"] = s => s.RecvMultipart().Dispose(),
        ["Poll"] = s =>
        {
            using var poller = new Poller();
            poller.Add(s, PollEvents.In);
            poller.Poll(Timeouts.WaitMs);
        },
    };

    public static TheoryData<string> BlockingCalls => new(s_blockingCalls.Keys);

    [Theory]
    [MemberData(nameof(BlockingCalls))]
    public async Task Blocking_receive_on_another_thread_ends_with_ContextTerminatedException_on_Shutdown(string call)
    {
        using var pull = Sockets.New(Context, SocketType.Pull);
        pull.Bind(Endpoints.NewInproc());

        Task receive = Waits.StartBlocked(() => s_blockingCalls[call](pull));
        Context.Shutdown();

        Assert.True(await Waits.FinishesAsync(receive), "the blocking call did not end after Shutdown");
        var ex = await Assert.ThrowsAsync<ContextTerminatedException>(() => receive);
        Assert.Equal(ZmqError.ETERM, ex.ErrorNumber);
    }

    [Fact]
    public async Task Blocking_receive_on_another_thread_ends_with_ContextTerminatedException_on_Dispose()
    {
        var context = Sockets.NewContext();
        using var pull = Sockets.New(context, SocketType.Pull);
        pull.Bind(Endpoints.NewInproc());

        Task receive = Waits.StartBlocked(() => pull.RecvBytes());
        context.Dispose();

        Assert.True(await Waits.FinishesAsync(receive), "the blocking call did not end after Dispose");
        await Assert.ThrowsAsync<ContextTerminatedException>(() => receive);
    }

    [Fact]
    public async Task Blocking_send_on_another_thread_ends_with_ContextTerminatedException_on_Shutdown()
    {
        using var push = Sockets.New(Context, SocketType.Push); // no peer: a send blocks

        Task send = Waits.StartBlocked(() => push.Send("stuck"));
        Context.Shutdown();

        Assert.True(await Waits.FinishesAsync(send), "the blocking send did not end after Shutdown");
        await Assert.ThrowsAsync<ContextTerminatedException>(() => send);
    }

    [Fact]
    public void After_Shutdown_every_socket_call_throws_ContextTerminatedException()
    {
        using var socket = new Socket(Context, SocketType.Pair);

        Context.Shutdown();

        Assert.Throws<ContextTerminatedException>(() => socket.Send("x"));
        Assert.Throws<ContextTerminatedException>(() => socket.Recv(new byte[4], RecvFlags.DontWait));
        Assert.Throws<ContextTerminatedException>(() => socket.Bind(Endpoints.NewInproc()));
        Assert.Throws<ContextTerminatedException>(() => new Socket(Context, SocketType.Pair));
    }

    [Fact]
    public void Shutdown_twice_is_harmless()
    {

        Context.Shutdown();
        Context.Shutdown();

        Assert.Throws<ContextTerminatedException>(() => new Socket(Context, SocketType.Pair));
    }
}
