namespace Net.Zmq.Reliability.Tests.Support;

/// <summary>
/// Tests that read process-wide figures (open file descriptors, RSS, the managed heap) run in this collection,
/// after and never beside the other tests, so that other tests' sockets do not move the figures.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class AloneCollection
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Reliability: process-wide figures";
}
