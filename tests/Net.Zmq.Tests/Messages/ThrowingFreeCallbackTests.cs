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
    public void A_free_callback_that_throws_is_reported_and_the_sockets_go_on()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(SendWithAThrowingFreeCallback, Timeouts.Wait * 6);

        outcome.AssertSucceeded();
        Assert.Contains("the free callback of a zero-copy Message threw", outcome.Output, StringComparison.Ordinal);
        Assert.Contains("free callback thrown on purpose", outcome.Output, StringComparison.Ordinal);
    }

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

        pull.WithTimeouts();
        if (pull.Recv(new byte[64 * 1024]) != 64 * 1024 || !reported.WaitForReport())
        {
            throw new InvalidOperationException("the zero-copy frame did not arrive, or its callback's failure was not reported");
        }

        push.Send("after");
        if (pull.RecvString() != "after")
        {
            throw new InvalidOperationException("the sockets stopped working");
        }
    }
}
