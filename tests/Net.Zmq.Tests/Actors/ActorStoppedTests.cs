using Net.Zmq.Actors;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Actors;

/// <summary>
/// Once the handler has ended, a send on the pipe fails at once saying the actor has stopped (it used to wait forever
/// for a reader that was gone), every time; and Dispose works from a thread other than the owner's.
/// </summary>
public sealed class ActorStoppedTests(ITestOutputHelper output) : ContextPerTest
{
    [Fact]
    public async Task Sending_to_an_actor_whose_handler_returned_throws_at_once_every_time()
    {
        var actor = new Actor(Context, pipe =>
        {
            while (pipe.RecvString() != "quit")
            {
            }
        });
        actor.Pipe.WithTimeouts();
        Assert.True(actor.Pipe.Send("quit"));
        Assert.True(await Waits.FinishesAsync(actor.Completion), "the handler should have returned");

        for (int i = 0; i < 3; i++)
        {
            Task<Exception?> send = Waits.Run<Exception?>(() => Record.Exception(() => actor.Pipe.Send("anyone there?")));
            Assert.True(await Waits.FinishesAsync(send), $"send {i} to a stopped actor did not return");
            var error = Assert.IsType<InvalidOperationException>(await send);
            Assert.Contains("actor has stopped", error.Message, StringComparison.Ordinal);
            Assert.Null(error.InnerException);
        }

        actor.Dispose();
    }

    [Fact]
    public async Task Sending_to_an_actor_whose_handler_threw_names_the_handlers_exception()
    {
        var actor = new Actor(Context, pipe =>
        {
            pipe.RecvString();
            throw new FormatException("bad command");
        });
        actor.Pipe.WithTimeouts();
        Assert.True(actor.Pipe.Send("boom"));
        Assert.True(await Waits.FinishesAsync(actor.Completion), "the handler should have ended");

        Task<Exception?> send = Waits.Run<Exception?>(() => Record.Exception(() => actor.Pipe.Send("more")));
        Assert.True(await Waits.FinishesAsync(send), "a send to a failed actor did not return");

        var error = Assert.IsType<InvalidOperationException>(await send);
        Assert.Contains("FormatException", error.Message, StringComparison.Ordinal);
        Assert.IsType<FormatException>(error.InnerException);
        Assert.Equal("bad command", Assert.Throws<FormatException>(actor.Dispose).Message);
    }

    [Fact]
    public async Task Dispose_from_a_thread_other_than_the_owner_stops_the_handler()
    {
        string? received = null;
        var actor = new Actor(Context, pipe =>
        {
            while (true)
            {
                received = pipe.RecvString();
                if (received == Actor.StopCommand)
                {
                    return;
                }

                pipe.Send(received);
            }
        });
        actor.Pipe.WithTimeouts();
        for (int i = 0; i < 20; i++) // enough calls for the owner's thread to be granted the pipe
        {
            Assert.True(actor.Pipe.Send("ping"));
            Assert.Equal("ping", actor.Pipe.RecvString());
        }

        Task dispose = Waits.Run(actor.Dispose);

        Assert.True(await Waits.FinishesAsync(dispose), "Dispose from another thread did not return");
        await dispose;
        Assert.Equal(Actor.StopCommand, received);
        Assert.True(actor.Completion.IsCompletedSuccessfully);
        Assert.True(actor.Pipe.IsDisposed);
    }

    [Fact]
    public async Task Dispose_while_the_owner_stays_inside_a_call_on_the_pipe_refuses_and_changes_nothing()
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        using var reply = new ManualResetEventSlim();
        var actor = new Actor(Context, pipe =>
        {
            while (true)
            {
                string command = pipe.RecvString();
                if (command == Actor.StopCommand)
                {
                    return;
                }

                reply.Wait(Timeouts.Wait);
                pipe.Send("late reply");
            }
        });
        actor.Pipe.WithTimeouts();
        actor.StopTimeout = TimeSpan.FromMilliseconds(200);
        Assert.True(actor.Pipe.Send("work"));
        Task<string> owner = BlockedThreads.RunUntilBlocked(() => actor.Pipe.RecvString(), out _);

        var refused = Assert.Throws<InvalidOperationException>(actor.Dispose);

        Assert.Contains("stayed inside a call on its Pipe", refused.Message, StringComparison.Ordinal);
        Assert.True(actor.IsRunning);
        Assert.False(actor.Pipe.IsDisposed);
        reply.Set();
        Assert.True(await Waits.FinishesAsync(owner), "the owner's receive did not return");
        Assert.Equal("late reply", await owner);
        actor.Dispose(); // the refused Dispose left the actor as it was: this one stops it
        Assert.True(actor.Completion.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Dispose_from_another_thread_waits_for_the_owners_call_on_the_pipe_to_return_then_stops_the_actor()
    {
        if (!BlockedThreads.Supported)
        {
            output.WriteLine(BlockedThreads.Unsupported);
            return;
        }

        using var reply = new ManualResetEventSlim();
        string? last = null;
        var actor = new Actor(Context, pipe =>
        {
            while ((last = pipe.RecvString()) != Actor.StopCommand)
            {
                reply.Wait(Timeouts.Wait);
                pipe.Send("reply");
            }
        });
        actor.Pipe.WithTimeouts();
        Assert.True(actor.Pipe.Send("work"));
        Task<string> owner = BlockedThreads.RunUntilBlocked(() => actor.Pipe.RecvString(), out _);

        Task dispose = Waits.Run(actor.Dispose); // finds the owner inside its receive, and tries again
        Assert.False(await Waits.FinishesAsync(dispose, TimeSpan.FromMilliseconds(100)), "Dispose returned while the owner was inside a call on the pipe");
        reply.Set();

        Assert.True(await Waits.FinishesAsync(owner), "the owner's receive did not return");
        Assert.Equal("reply", await owner);
        Assert.True(await Waits.FinishesAsync(dispose), "Dispose did not return once the pipe was free");
        await dispose;
        Assert.Equal(Actor.StopCommand, last);
        Assert.True(actor.Completion.IsCompletedSuccessfully);
        Assert.True(actor.Pipe.IsDisposed);
    }
}
