namespace Net.Zmq.Tests.Support;

/// <summary>
/// Tests that measure the whole process (bytes allocated, working set, the reactor thread's CPU, thread-pool size,
/// latency): they run alone, after the parallel tests, so that no other test disturbs the figures.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ProcessMeasurementCollection
{
    public const string Name = "Process measurements";
}
