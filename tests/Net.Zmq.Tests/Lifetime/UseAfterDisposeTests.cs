using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class UseAfterDisposeTests : ContextPerTest
{
    private static readonly Dictionary<string, Action<Socket>> s_members = new()
    {
        ["Bind"] = s => s.Bind(Endpoints.NewInproc()),
        ["Connect"] = s => s.Connect(Endpoints.NewInproc()),
        ["Unbind"] = s => s.Unbind("tcp://127.0.0.1:5999"),
        ["Disconnect"] = s => s.Disconnect("tcp://127.0.0.1:5999"),
        ["Subscribe(string)"] = s => s.Subscribe("topic"),
        ["Subscribe(span)"] = s => s.Subscribe("topic"u8),
        ["Unsubscribe(string)"] = s => s.Unsubscribe("topic"),
        ["Unsubscribe(span)"] = s => s.Unsubscribe("topic"u8),
        ["SetOption(int)"] = s => s.SetOption(SocketOption.Linger, 0),
        ["SetOption(long)"] = s => s.SetOption(SocketOption.MaxMessageSize, 10L),
        ["SetOption(ulong)"] = s => s.SetOption(SocketOption.Affinity, 1UL),
        ["SetOption(bool)"] = s => s.SetOption(SocketOption.Immediate, true),
        ["SetOption(TimeSpan)"] = s => s.SetOption(SocketOption.Linger, TimeSpan.Zero),
        ["SetOption(span)"] = s => s.SetOption(SocketOption.RoutingId, "id"u8),
        ["SetOption(byte[])"] = s => s.SetOption(SocketOption.RoutingId, new byte[] { 1 }),
        ["SetOption(string)"] = s => s.SetOption(SocketOption.ZapDomain, "domain"),
        ["GetOption<int>"] = s => s.GetOption<int>(SocketOption.SendHighWatermark),
        ["GetOption<long>"] = s => s.GetOption<long>(SocketOption.MaxMessageSize),
        ["GetOption<ulong>"] = s => s.GetOption<ulong>(SocketOption.Affinity),
        ["GetOption<bool>"] = s => s.GetOption<bool>(SocketOption.Immediate),
        ["GetOption<TimeSpan>"] = s => s.GetOption<TimeSpan>(SocketOption.Linger),
        ["GetOption<string>"] = s => s.GetOption<string>(SocketOption.ZapDomain),
        ["GetOption<byte[]>"] = s => s.GetOption<byte[]>(SocketOption.RoutingId),
        ["GetOption<nint>"] = s => s.GetOption<nint>(SocketOption.FileDescriptor),
        ["GetOption(span)"] = s => s.GetOption(SocketOption.RoutingId, new byte[255]),
        ["LastEndpoint"] = s => _ = s.LastEndpoint,
        ["HasMore"] = s => _ = s.HasMore,
        ["Events"] = s => _ = s.Events,
        ["Send(span)"] = s => s.Send("x"u8),
        ["Send(byte[])"] = s => s.Send(new byte[] { 1 }),
        ["Send(short string)"] = s => s.Send("x"),
        ["Send(long string)"] = s => s.Send(new string('x', 1000)),
        ["Send(nint, int)"] = s => s.Send(0, 0),
        ["Send(Message)"] = s =>
        {
            using var message = new Message("x");
            s.Send(message);
        },
        ["SendMultipart(MultipartMessage)"] = s =>
        {
            using var message = new MultipartMessage();
            message.Add("a");
            message.Add("b");
            s.SendMultipart(message);
        },
        ["SendMultipart(frames)"] = s => s.SendMultipart([[1], [2]]),
        ["Recv(span)"] = s => s.Recv(new byte[8].AsSpan()),
        ["Recv(byte[])"] = s => s.Recv(new byte[8]),
        ["Recv(nint, int)"] = s => s.Recv(0, 0),
        ["Recv(Message)"] = s =>
        {
            using var message = new Message();
            s.Recv(message);
        },
        ["Recv()"] = s => s.Recv().Dispose(),
        ["RecvBytes"] = s => s.RecvBytes(),
        ["RecvString"] = s => s.RecvString(),
        ["TryRecv(span)"] = s => s.TryRecv(new byte[8], out _),
        ["TryRecv(Message)"] = s =>
        {
            using var message = new Message();
            s.TryRecv(message);
        },
        ["TryRecvString"] = s => s.TryRecvString(out _),
        ["RecvMultipart()"] = s => s.RecvMultipart().Dispose(),
        ["RecvMultipart(MultipartMessage)"] = s =>
        {
            using var message = new MultipartMessage();
            s.RecvMultipart(message);
        },
        ["TryRecvMultipart"] = s => s.TryRecvMultipart(out _),
    };

    public static TheoryData<string> Members => new(s_members.Keys);

    [Theory]
    [MemberData(nameof(Members))]
    public void Socket_member_used_after_Dispose_throws_ObjectDisposedException(string member)
    {
        var socket = new Socket(Context, SocketType.Dealer);
        socket.Dispose();

        var ex = Assert.Throws<ObjectDisposedException>(() => s_members[member](socket));

        Assert.Equal(typeof(Socket).FullName, ex.ObjectName);
    }

    [Fact]
    public void Disposed_socket_still_reports_its_type_context_and_state()
    {
        var socket = new Socket(Context, SocketType.Router);

        socket.Dispose();

        Assert.True(socket.IsDisposed);
        Assert.Equal(SocketType.Router, socket.Type);
        Assert.Same(Context, socket.Context);
        Assert.Contains("disposed", socket.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Disposed_socket_cannot_be_added_to_a_poller()
    {
        using var poller = new Poller();
        var socket = new Socket(Context, SocketType.Pull);
        socket.Dispose();

        Assert.Throws<ObjectDisposedException>(() => poller.Add(socket, PollEvents.In));
        Assert.Equal(0, poller.Count);
    }

    [Fact]
    public void Socket_disposed_while_registered_in_a_poller_refuses_further_calls()
    {
        using var poller = new Poller();
        var socket = new Socket(Context, SocketType.Pull);
        poller.Add(socket, PollEvents.In);

        socket.Dispose();

        Assert.Throws<ObjectDisposedException>(() => socket.Bind(Endpoints.NewInproc()));
        Assert.Throws<ObjectDisposedException>(() => socket.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public void Socket_closes_once_the_poller_that_held_it_is_disposed()
    {
        var poller = new Poller();
        var socket = new Socket(Context, SocketType.Pull);
        poller.Add(socket, PollEvents.In);
        socket.Dispose();

        poller.Dispose();

        Assert.True(socket.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => socket.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public async Task Socket_disposed_while_another_thread_is_blocked_in_Recv_refuses_further_calls_at_once()
    {
        var pull = Sockets.New(Context, SocketType.Pull);
        pull.Bind(Endpoints.NewInproc());
        Task receive = Waits.StartBlocked(() => pull.RecvBytes());

        pull.Dispose();
        bool reportedDisposed = pull.IsDisposed;
        Exception? laterCall = Record.Exception(() => pull.GetOption<int>(SocketOption.Linger));
        Context.Shutdown(); // releases the receive
        Assert.True(await Waits.FinishesAsync(receive));

        Assert.True(reportedDisposed, "IsDisposed was false right after Dispose");
        Assert.IsType<ObjectDisposedException>(laterCall);
    }

    [Fact]
    public void Disposed_context_refuses_new_sockets_and_every_call()
    {
        var context = Sockets.NewContext();
        context.Dispose();

        Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Pair));
        Assert.Throws<ObjectDisposedException>(() => context.GetOption(ContextOption.IoThreads));
        Assert.Throws<ObjectDisposedException>(() => context.SetOption(ContextOption.IoThreads, 2));
        Assert.Throws<ObjectDisposedException>(() => context.Shutdown());
    }

    [Fact]
    public void Context_disposed_while_sockets_are_open_refuses_further_calls_with_ObjectDisposedException()
    {
        var context = Sockets.NewContext();
        using var open = new Socket(context, SocketType.Pair);

        context.Dispose();

        Assert.Throws<ObjectDisposedException>(() => context.GetOption(ContextOption.IoThreads));
        Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Pair));
    }

    [Fact]
    public void Disposed_poller_throws_ObjectDisposedException()
    {
        using var socket = new Socket(Context, SocketType.Pull);
        var poller = new Poller();
        poller.Dispose();

        Assert.Throws<ObjectDisposedException>(() => poller.Add(socket, PollEvents.In));
        Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
    }
}
