namespace Net.Zmq.Samples;

/// <summary>One runnable sample. It prints what happens through the log and reports a failed check through it too.</summary>
public interface ISample
{
    /// <summary>The name used on the command line, e.g. "req-rep".</summary>
    string Name { get; }

    /// <summary>One line saying what the sample shows.</summary>
    string Description { get; }

    /// <summary>Runs the sample. A failed <see cref="SampleLog.Check"/> or an exception means the sample failed.</summary>
    void Run(SampleLog log);
}
