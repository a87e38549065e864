namespace Net.Zmq.Benchmarks;

/// <summary>
/// One request–reply exchange repeated by <see cref="RoundTripRunner"/>. The requester is the calling thread; every
/// responder runs on its own thread with a blocking receive, for both libraries alike.
/// </summary>
internal abstract class RoundTripScenario : IDisposable
{
    private readonly List<Thread> _responders = [];
    private volatile bool _stopping;

    /// <summary>Set by <see cref="Dispose"/>: a responder that sees it after a receive leaves its loop.</summary>
    protected bool Stopping => _stopping;

    /// <summary>One timed operation.</summary>
    public abstract void RunOnce();

    public void Dispose()
    {
        _stopping = true;
        SendFinalRequest();
        foreach (Thread responder in _responders)
        {
            responder.Join();
        }

        CloseSockets();
    }

    protected void StartResponder(Action loop)
    {
        var thread = new Thread(() => loop()) { IsBackground = true, Name = "responder" };
        _responders.Add(thread);
        thread.Start();
    }

    /// <summary>Sends one request that reaches every responder, so each sees <see cref="Stopping"/> and returns.</summary>
    protected abstract void SendFinalRequest();

    protected abstract void CloseSockets();
}
