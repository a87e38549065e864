namespace Net.Zmq.Samples;

/// <summary>Writes a sample's lines, prefixed with its name, and counts failed checks. Safe to use from several threads.</summary>
public sealed class SampleLog
{
    private readonly TextWriter _writer;
    private readonly object _gate = new();
    private int _failures;

    public SampleLog(string sampleName, TextWriter writer)
    {
        ArgumentException.ThrowIfNullOrEmpty(sampleName);
        ArgumentNullException.ThrowIfNull(writer);
        SampleName = sampleName;
        _writer = writer;
    }

    public string SampleName { get; }

    /// <summary>How many checks failed so far.</summary>
    public int Failures => Volatile.Read(ref _failures);

    /// <summary>Prints one line, prefixed with the sample's name.</summary>
    public void Info(string text)
    {
        lock (_gate)
        {
            _writer.WriteLine($"[{SampleName}] {text}");
        }
    }

    /// <summary>Records a check: prints "FAILED: ..." and counts a failure when <paramref name="condition"/> is false.</summary>
    /// <returns><paramref name="condition"/>.</returns>
    public bool Check(bool condition, string what)
    {
        if (!condition)
        {
            Interlocked.Increment(ref _failures);
            Info($"FAILED: {what}");
        }

        return condition;
    }
}
