namespace Net.Zmq.Tests.Support;

/// <summary>
/// The one bound on waiting in the tests: a blocking receive or send, a task, an event or a poll that should finish in
/// well under a second gives up after this long, so that a bug fails its test instead of hanging the run.
/// </summary>
internal static class Timeouts
{
    /// <summary><see cref="Wait"/> in milliseconds, for ReceiveTimeout, SendTimeout and Poll.</summary>
    public const int WaitMs = 5000;

    /// <summary>How long a test waits for anything that should happen promptly.</summary>
    public static readonly TimeSpan Wait = TimeSpan.FromMilliseconds(WaitMs);
}
