using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Lifetime;

/// <summary>
/// A send made after Context.Dispose or Context.Shutdown has returned throws ContextTerminatedException every time,
/// even when the socket has room to queue it (libzmq alone lets such a send through for about a millisecond).
/// </summary>
public sealed class SendAfterShutdownTests
{
    private const int Runs = 50;

    [Fact]
    public void A_send_right_after_Context_Dispose_throws_ContextTerminatedException_every_time()
    {
        for (int run = 0; run < Runs; run++)
        {
            var context = Sockets.NewContext();
            using var receiver = new Socket(context, SocketType.Pair);
            using var sender = new Socket(context, SocketType.Pair);
            string endpoint = Endpoints.BindInproc(receiver);
            sender.Connect(endpoint);
            Assert.True(sender.Send("before", SendFlags.DontWait)); // the pipe is up and has room

            context.Dispose();

            Assert.Throws<ContextTerminatedException>(() => sender.Send("after"));
            Assert.Throws<ContextTerminatedException>(() => sender.Send("after", SendFlags.DontWait));
        }
    }

    [Fact]
    public void A_send_right_after_Context_Shutdown_throws_ContextTerminatedException_every_time()
    {
        for (int run = 0; run < Runs; run++)
        {
            using var context = Sockets.NewContext();
            using var receiver = new Socket(context, SocketType.Pull);
            using var sender = new Socket(context, SocketType.Push);
            string endpoint = Endpoints.BindInproc(receiver);
            sender.Connect(endpoint);
            Assert.True(sender.Send("before", SendFlags.DontWait));

            context.Shutdown();

            var error = Assert.Throws<ContextTerminatedException>(() => sender.Send("after"u8));
            Assert.Contains("ETERM", error.Message, StringComparison.Ordinal);
            using var frame = new Message("after"u8);
            Assert.Throws<ContextTerminatedException>(() => sender.Send(frame));
        }
    }
}
