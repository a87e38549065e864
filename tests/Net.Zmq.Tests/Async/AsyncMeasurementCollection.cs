namespace Net.Zmq.Tests.Async;

/// <summary>
/// Tests that measure the whole process (bytes allocated, the reactor thread's CPU, thread-pool size, latency):
/// they run alone, after the parallel tests, so that no other test disturbs the figures.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class AsyncMeasurementCollection
{
    public const string Name = "Async measurements";
}
