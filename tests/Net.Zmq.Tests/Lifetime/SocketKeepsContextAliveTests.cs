using System.Runtime.CompilerServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class SocketKeepsContextAliveTests
{
    [Fact]
    public async Task Socket_still_works_after_its_undisposed_context_is_dropped_and_the_GC_runs()
    {
        Socket server = CreateSocketAndDropContext(SocketType.Pair);
        server.WithTimeouts();

        Assert.True(await Waits.FinishesAsync(Waits.Run(CollectEverything)), "the GC and finalizers did not finish");

        string endpoint = Endpoints.NewInproc();
        server.Bind(endpoint);
        using (var client = Sockets.New(server.Context, SocketType.Pair))
        {
            client.Connect(endpoint);
            client.Send("still alive");
            Assert.Equal("still alive", server.RecvString());
        }

        Context context = server.Context;
        server.Dispose();
        context.Dispose();
    }

    [Fact]
    public async Task Tcp_socket_keeps_working_across_collections_without_a_context_reference()
    {
        Socket pull = CreateSocketAndDropContext(SocketType.Pull);
        pull.WithTimeouts();
        pull.Bind(Endpoints.EphemeralTcp);
        Socket push = Sockets.New(pull.Context, SocketType.Push);
        push.Connect(pull.LastEndpoint);

        for (int i = 0; i < 3; i++)
        {
            Assert.True(await Waits.FinishesAsync(Waits.Run(CollectEverything)));
            push.Send($"round {i}");
            Assert.Equal($"round {i}", pull.RecvString());
        }

        Context context = pull.Context;
        push.Dispose();
        pull.Dispose();
        context.Dispose();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Socket CreateSocketAndDropContext(SocketType type)
    {
        var context = Sockets.NewContext();
        return new Socket(context, type);
    }

    private static void CollectEverything()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }
}
