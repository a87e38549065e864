namespace Net.Zmq.HostedWorker;

/// <summary>Where the worker serves: the endpoint it binds, and the one it bound once it listens.</summary>
public sealed class ServerEndpoint(string bind)
{
    private readonly TaskCompletionSource<string> _bound = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The endpoint to bind (tcp://127.0.0.1:* for any free port).</summary>
    public string Bind { get; } = bind;

    /// <summary>The endpoint peers connect to, once the worker listens.</summary>
    public Task<string> Bound => _bound.Task;

    /// <summary>Whether the worker ended on an error rather than on the host's stop.</summary>
    public bool Failed { get; private set; }

    internal void Listening(string endpoint)
    {
        Console.WriteLine($"serving on {endpoint}");
        _bound.TrySetResult(endpoint);
    }

    internal void Fail(Exception error)
    {
        Failed = true;
        _bound.TrySetException(error);
    }
}
