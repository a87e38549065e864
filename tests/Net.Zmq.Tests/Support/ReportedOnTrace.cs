namespace Net.Zmq.Tests.Support;

/// <summary>
/// For user code that throws where the library cannot pass the exception on (a continuation on the reactor thread, a
/// free callback on libzmq's I/O thread, a meter listener): the library must report the failure on Trace and go on.
/// The case runs in a child process, so that a regression ends that process instead of the test run, and so that a
/// process-wide listener touches no other test.
/// </summary>
internal static class ReportedOnTrace
{
    /// <summary>
    /// Runs <paramref name="piece"/> in a child process (<see cref="IsolatedProcess"/>; the piece calls
    /// <see cref="TracedToOutput.Start"/> so that what the library traces reaches the output) and asserts that it
    /// returned normally within 30 s and that its output holds every one of <paramref name="reported"/>.
    /// </summary>
    public static void AssertInChild(Action piece, params string[] reported)
    {
        IsolatedOutcome outcome = IsolatedProcess.Run(piece, Timeouts.Wait * 6);

        outcome.AssertSucceeded();
        foreach (string text in reported)
        {
            Assert.Contains(text, outcome.Output, StringComparison.Ordinal);
        }
    }
}
