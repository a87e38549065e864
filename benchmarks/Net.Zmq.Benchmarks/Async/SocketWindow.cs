namespace Net.Zmq.Benchmarks;

/// <summary>One timed window of the 10,000-socket row: what the busy pairs moved and the CPU it cost.</summary>
/// <param name="Sockets">Sockets in async use during the window.</param>
/// <param name="Messages">Messages received by all busy pairs in the window.</param>
/// <param name="ProcessCpu">CPU time of the whole process (user + system) in the window.</param>
/// <param name="ReactorCpu">CPU time of the "Net.Zmq reactor" threads in the window (10 ms resolution); null if not found.</param>
/// <param name="ThreadPoolThreads">Thread-pool threads at the end of the window.</param>
internal sealed record SocketWindow(
    string Label, int Sockets, TimeSpan Duration, long Messages, TimeSpan ProcessCpu, TimeSpan? ReactorCpu, int ThreadPoolThreads)
{
    public double MessagesPerSecond => Messages / Duration.TotalSeconds;

    /// <summary>Reactor CPU as a share of one core (1 = one core busy all the time).</summary>
    public double? ReactorShare => ReactorCpu / Duration;

    public double ProcessShare => ProcessCpu / Duration;

    /// <summary>Reactor CPU per message moved, ns.</summary>
    public double? ReactorPerMessage => ReactorCpu is { } cpu && Messages > 0 ? cpu.Ticks * 100.0 / Messages : null;
}
