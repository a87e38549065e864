using System.Diagnostics;
using Net.Zmq.Actors;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Actors;

/// <summary>Dispose stops the handler with the stop command, and never waits past StopTimeout.</summary>
public sealed class ActorStopTests : ContextPerTest
{
    [Fact]
    public void Dispose_stops_a_handler_blocked_in_Recv_on_its_pipe()
    {
        string? received = null;
        var actor = new Actor(Context, pipe =>
        {
            pipe.Send("about to block");
            received = pipe.RecvString(); // blocks: the owner sends nothing but the stop command
        });
        actor.Pipe.WithTimeouts();
        Assert.Equal("about to block", actor.Pipe.RecvString());

        var clock = Stopwatch.StartNew();
        actor.Dispose();

        Assert.True(clock.Elapsed < Timeouts.Wait, $"Dispose took {clock.ElapsedMilliseconds} ms");
        Assert.Equal(Actor.StopCommand, received);
        Assert.True(actor.Completion.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Dispose_throws_TimeoutException_when_the_handler_ignores_the_stop_command()
    {
        using var release = new ManualResetEventSlim();
        var actor = new Actor(Context, pipe =>
        {
            pipe.Send("busy");
            release.Wait(Timeouts.Wait); // does not read its pipe
        })
        { StopTimeout = TimeSpan.FromMilliseconds(200) };
        actor.Pipe.WithTimeouts();
        Assert.Equal("busy", actor.Pipe.RecvString());

        var clock = Stopwatch.StartNew();
        TimeoutException error = Assert.Throws<TimeoutException>(actor.Dispose);

        Assert.True(clock.ElapsedMilliseconds >= 190, $"Dispose gave up after {clock.ElapsedMilliseconds} ms");
        Assert.Contains("$TERM", error.Message, StringComparison.Ordinal);
        Assert.True(actor.IsRunning);
        Assert.True(actor.Pipe.IsDisposed);
        release.Set();
        Assert.True(await Waits.FinishesAsync(actor.Completion), "the handler should end once released");
    }

    [Fact]
    public async Task Context_shutdown_ends_a_blocked_handler_as_a_normal_end()
    {
        var actor = new Actor(Context, pipe =>
        {
            pipe.Send("blocking");
            pipe.Recv(); // ends with ContextTerminatedException
        });
        actor.Pipe.WithTimeouts();
        Assert.Equal("blocking", actor.Pipe.RecvString());

        Context.Shutdown();

        Assert.True(await Waits.FinishesAsync(actor.Completion), "the handler should end when its context is shut down");
        Assert.True(actor.Completion.IsCompletedSuccessfully);
        actor.Dispose();
    }

    [Fact]
    public void Disposing_from_the_handler_itself_throws_InvalidOperationException()
    {
        var self = new TaskCompletionSource<Actor>(TaskCreationOptions.RunContinuationsAsynchronously);
        using var actor = new Actor(Context, pipe =>
        {
            Actor me = self.Task.Result;
            try
            {
                me.Dispose();
                pipe.Send("disposed");
            }
            catch (InvalidOperationException)
            {
                pipe.Send("refused");
            }

            while (pipe.RecvString() != Actor.StopCommand)
            {
            }
        });
        actor.Pipe.WithTimeouts();
        self.SetResult(actor);

        Assert.Equal("refused", actor.Pipe.RecvString());
        Assert.True(actor.IsRunning);
    }
}
