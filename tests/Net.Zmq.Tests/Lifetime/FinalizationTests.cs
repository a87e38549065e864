using System.Runtime.CompilerServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

public class FinalizationTests : ContextPerTest
{
    [Fact]
    public async Task Undisposed_context_sockets_and_messages_finalize_without_hanging()
    {
        // Contexts, sockets, pollers and messages are finalized (a message's finalizer closes its frame) and must not hang.
        WeakReference[] abandoned = Abandon();

        Task collection = Waits.Run(() =>
        {
            for (int i = 0; i < 3; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
        });

        Assert.True(await Waits.FinishesAsync(collection), "finalizers did not finish: one of them hangs");
        Assert.All(abandoned, reference => Assert.False(reference.IsAlive, $"{reference.Target} was not collected"));
    }

    [Fact]
    public async Task Undisposed_socket_finalizes_while_its_context_stays_usable()
    {
        WeakReference socket = AbandonSocket(Context);

        Assert.True(await Waits.FinishesAsync(Waits.Run(() =>
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        })));

        Assert.False(socket.IsAlive);
        using var another = new Socket(Context, SocketType.Pair);
        another.Bind(Endpoints.NewInproc());
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference[] Abandon()
    {
        var context = new Context();
        var bound = new Socket(context, SocketType.Rep);
        bound.Bind(Endpoints.EphemeralTcp);
        var stuck = new Socket(context, SocketType.Push);
        stuck.Connect("tcp://127.0.0.1:1"); // nobody listens there: the message below stays queued
        stuck.Send(new byte[100], SendFlags.DontWait);
        var polled = new Socket(context, SocketType.Pull);
        var poller = new Poller();
        poller.Add(polled, PollEvents.In);
        var small = new Message("small");
        var large = new Message(new byte[100_000]);
        var received = new Message();
        return [new(context), new(bound), new(stuck), new(polled), new(poller), new(small), new(large), new(received)];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference AbandonSocket(Context context)
    {
        var socket = new Socket(context, SocketType.Dealer);
        socket.Bind(Endpoints.NewInproc());
        return new WeakReference(socket);
    }
}
