namespace Net.Zmq.Tests.Diagnostics;

/// <summary>
/// The meter's counts are process-wide (every socket of every test): these tests run alone, after the parallel ones,
/// so that only their own sockets move the figures.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MetricsCollection
{
    public const string Name = "Metrics";
}
