using Net.Zmq.Actors;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Actors;

/// <summary>An exception the handler throws reaches the owner: Completion faults with it and Dispose rethrows it.</summary>
public sealed class ActorFaultTests : ContextPerTest
{
    [Fact]
    public async Task A_handler_exception_faults_Completion_and_Dispose_rethrows_it()
    {
        var actor = new Actor(Context, pipe =>
        {
            while (true)
            {
                string command = pipe.RecvString();
                if (command == "fail")
                {
                    throw new InvalidOperationException("the handler failed on purpose");
                }

                pipe.Send("ok");
            }
        });
        actor.Pipe.WithTimeouts();
        Assert.True(actor.Pipe.Send("work"));
        Assert.Equal("ok", actor.Pipe.RecvString());

        Assert.True(actor.Pipe.Send("fail"));

        Assert.True(await Waits.FinishesAsync(actor.Completion), "the handler should have ended");
        Assert.True(actor.Completion.IsFaulted);
        var thrown = await Assert.ThrowsAsync<InvalidOperationException>(() => actor.Completion);
        Assert.False(actor.IsRunning);
        var rethrown = Assert.Throws<InvalidOperationException>(actor.Dispose);
        Assert.Same(thrown, rethrown);
        Assert.True(actor.Pipe.IsDisposed);
        actor.Dispose(); // only the first call reports the failure
    }

    [Fact]
    public async Task A_handler_that_fails_before_reading_its_pipe_surfaces_the_failure()
    {
        var actor = new Actor(Context, _ => throw new FormatException("bad configuration"));

        Assert.True(await Waits.FinishesAsync(actor.Completion), "the handler should have ended");

        Assert.IsType<FormatException>(actor.Completion.Exception?.InnerException);
        Assert.Equal("bad configuration", Assert.Throws<FormatException>(actor.Dispose).Message);
    }

    [Fact]
    public void Constructor_checks_its_arguments()
    {
        Assert.Throws<ArgumentNullException>(() => new Actor(null!, _ => { }));
        Assert.Throws<ArgumentNullException>(() => new Actor(Context, null!));
        using var actor = new Actor(Context, _ => { });
        Assert.Throws<ArgumentOutOfRangeException>(() => actor.StopTimeout = TimeSpan.FromSeconds(-2));
    }
}
