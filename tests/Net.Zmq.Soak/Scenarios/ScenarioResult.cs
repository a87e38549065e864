namespace Net.Zmq.Soak.Scenarios;

/// <summary>The outcome of one scenario: whether its checks held, and the figures it measured.</summary>
/// <param name="Name">The scenario.</param>
/// <param name="Passed">True when every check held.</param>
/// <param name="Figures">What was measured, as one line of text.</param>
/// <param name="Elapsed">Wall time of the scenario.</param>
public sealed record ScenarioResult(string Name, bool Passed, string Figures, TimeSpan Elapsed)
{
    /// <inheritdoc />
    public override string ToString() => $"{(Passed ? "PASS" : "FAIL")}  {Name}  ({Elapsed.TotalSeconds:F1} s)  {Figures}";
}
