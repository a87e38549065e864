using Net.Zmq.Actors;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Actors;

/// <summary>The owner talks to the handler over the pipe: commands in, replies out, in order, with or without a Poller.</summary>
public sealed class ActorCommandTests : ContextPerTest
{
    private static void Uppercase(Socket pipe)
    {
        while (true)
        {
            string command = pipe.RecvString();
            if (command == Actor.StopCommand)
            {
                return;
            }

            pipe.Send(command.ToUpperInvariant());
        }
    }

    [Fact]
    public void The_handler_answers_commands_and_returns_on_dispose()
    {
        var actor = new Actor(Context, Uppercase);
        actor.Pipe.WithTimeouts();

        Assert.True(actor.Pipe.Send("hello"));
        Assert.Equal("HELLO", actor.Pipe.RecvString());
        Assert.True(actor.Pipe.Send("again"));
        Assert.Equal("AGAIN", actor.Pipe.RecvString());
        Assert.True(actor.IsRunning);

        actor.Dispose();

        Assert.True(actor.Completion.IsCompletedSuccessfully);
        Assert.False(actor.IsRunning);
        Assert.True(actor.Pipe.IsDisposed);
        actor.Dispose(); // a second call does nothing
    }

    [Fact]
    public void Commands_sent_right_after_construction_arrive_in_order()
    {
        const int Commands = 500;
        using var actor = new Actor(Context, Uppercase);
        actor.Pipe.WithTimeouts();

        for (int i = 0; i < Commands; i++)
        {
            Assert.True(actor.Pipe.Send($"c{i}", SendFlags.DontWait), "a command must never block the owner");
        }

        for (int i = 0; i < Commands; i++)
        {
            Assert.Equal($"C{i}", actor.Pipe.RecvString());
        }
    }

    [Fact]
    public void The_owner_polls_the_pipe_beside_another_socket()
    {
        using var actor = new Actor(Context, Uppercase);
        using Socket idle = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(idle);
        using var poller = new Poller();
        int idleIndex = poller.Add(idle, PollEvents.In);
        int pipeIndex = poller.Add(actor.Pipe, PollEvents.In);

        Assert.True(actor.Pipe.Send("ping"));

        Assert.Equal(1, poller.Poll(Timeouts.WaitMs));
        Assert.True(poller.IsReadable(pipeIndex));
        Assert.False(poller.IsReadable(idleIndex));
        Assert.True(actor.Pipe.TryRecvString(out string? reply));
        Assert.Equal("PING", reply);
        poller.Remove(pipeIndex);
    }

    [Fact]
    public void The_handler_polls_its_pipe_beside_its_own_sockets_and_stops_from_the_poll()
    {
        using Socket work = Sockets.New(Context, SocketType.Push);
        string endpoint = Endpoints.BindInproc(work);
        var actor = new Actor(Context, pipe =>
        {
            using Socket jobs = new(Context, SocketType.Pull);
            jobs.Connect(endpoint);
            using var poller = new Poller();
            int pipeIndex = poller.Add(pipe, PollEvents.In);
            int jobsIndex = poller.Add(jobs, PollEvents.In);
            pipe.Send("ready");
            while (true)
            {
                poller.Poll(-1);
                if (poller.IsReadable(pipeIndex) && pipe.TryRecvString(out string? command) && command == Actor.StopCommand)
                {
                    return;
                }

                if (poller.IsReadable(jobsIndex) && jobs.TryRecvString(out string? job))
                {
                    pipe.Send($"done {job}");
                }
            }
        });
        actor.Pipe.WithTimeouts();
        Assert.Equal("ready", actor.Pipe.RecvString());

        Assert.True(work.Send("job 1"));
        Assert.True(work.Send("job 2"));
        Assert.Equal("done job 1", actor.Pipe.RecvString());
        Assert.Equal("done job 2", actor.Pipe.RecvString());

        actor.Dispose();
        Assert.True(actor.Completion.IsCompletedSuccessfully);
    }

    [Fact]
    public void IsStopCommand_recognises_exactly_the_five_bytes_of_TERM()
    {
        Assert.True(Actor.IsStopCommand("$TERM"u8));
        Assert.False(Actor.IsStopCommand("$TERM\0"u8));
        Assert.False(Actor.IsStopCommand("$term"u8));
        Assert.False(Actor.IsStopCommand(ReadOnlySpan<byte>.Empty));
        Assert.Equal("$TERM", Actor.StopCommand);
    }
}
