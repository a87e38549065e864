using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests;

/// <summary>The kit that runs crash-prone cases in a child process tells a return, an exception, a crash and a hang apart.</summary>
public sealed class IsolatedProcessTests
{
    [Fact]
    public void A_piece_that_returns_succeeds()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(() => Console.WriteLine("piece ran"), Timeouts.Wait * 6);

        outcome.AssertSucceeded();
        Assert.Contains("piece ran", outcome.Output);
    }

    [Fact]
    public void A_piece_that_throws_exits_with_1_and_shows_the_exception()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(() => throw new InvalidOperationException("thrown in the child"), Timeouts.Wait * 6);

        Assert.Equal(1, outcome.ExitCode);
        Assert.Contains("thrown in the child", outcome.Output);
        Assert.ThrowsAny<Exception>(outcome.AssertSucceeded);
    }

    [Fact]
    public void A_piece_that_crashes_the_process_fails_without_killing_the_test_run()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(() => Environment.FailFast("crashed on purpose"), Timeouts.Wait * 6);

        Assert.False(outcome.TimedOut);
        Assert.NotEqual(0, outcome.ExitCode);
        Assert.NotEqual(1, outcome.ExitCode);
    }

    [Fact]
    public void A_piece_that_hangs_is_killed_at_its_timeout()
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(() => Thread.Sleep(Timeout.Infinite), TimeSpan.FromSeconds(3));

        Assert.True(outcome.TimedOut);
    }

    [Fact]
    public void A_lambda_that_captures_state_is_refused()
    {
        int captured = 42;

        Assert.Throws<ArgumentException>(() => IsolatedProcess.Run(() => Console.WriteLine(captured), Timeouts.Wait));
    }
}
