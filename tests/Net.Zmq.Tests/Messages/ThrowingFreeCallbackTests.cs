using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

/// <summary>
/// A zero-copy message's free callback that throws on libzmq's I/O thread (which cannot unwind a managed exception)
/// is reported on Trace, and the library goes on. In a child process, so that the Trace listener touches no other test.
/// </summary>
public sealed class ThrowingFreeCallbackTests
{
    [Fact]
    public void A_free_callback_that_throws_is_reported_and_the_sockets_go_on() =>
        ReportedOnTrace.AssertInChild(
            SendWithAThrowingFreeCallback, "the free callback of a zero-copy Message threw", "free callback thrown on purpose");

    private static void SendWithAThrowingFreeCallback()
    {
        using var reported = TracedToOutput.Start();
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        nint data = Marshal.AllocHGlobal(64 * 1024); // over tcp, and large enough that libzmq keeps it by reference
        using (var message = new Message(data, 64 * 1024, pointer =>
        {
            Marshal.FreeHGlobal(pointer);
            throw new InvalidOperationException("free callback thrown on purpose");
        }))
        {
            push.Send(message);
        }

        Assert.Equal(64 * 1024, pull.Recv(new byte[64 * 1024]));
        Assert.True(reported.WaitForReport(), "the callback's failure was not reported");

        push.Send("after");
        Assert.Equal("after", pull.RecvString());
    }
}
